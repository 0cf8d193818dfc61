import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { carriesSecret } from '../../kit/headers';
import { idempotency } from '../../kit/idempotency';
import { applyRateLimit, gate } from '../../kit/rate-limit';
import { parse } from '../../kit/validation';
import { findPushUserById } from '../../../db/repositories/push-users';
import { logInPushUser } from '../../../domain/auth/log-in-push-user';
import { refreshPushSession } from '../../../domain/auth/refresh-push-session';
import { registerPushAccount } from '../../../domain/auth/register-push-account';
import { setPasswordWithToken, setupTokenInfo } from '../../../domain/onboarding/setup-tokens';
import { pushLimits } from './limits';
import { principalOf, pushAuth } from './middleware';
import { LoginRequest, RefreshRequest, RegisterRequest, SetPasswordRequest, SetupTokenRequest } from './schema';
import { authResult, presentUser } from './sessions';
import { isoOrNull } from '../../kit/dates';

/**
 * POST /auth/register, /auth/login, /auth/refresh, /auth/setup-token, /auth/set-password
 * (per-IP limit) and GET /auth/me (a user token).
 */
export function pushAuthRouter(deps: AppDeps): Router {
  const router = new Router();
  const limits = pushLimits(deps);
  const perIp = async (ctx: Context, next: Next) => {
    applyRateLimit(ctx, await gate(deps.redis, limits.bucket('push-auth-ip', ctx.ip)));
    await next();
  };
  const idem = idempotency(deps, { scopeOf: (ctx) => `push-ip:${ctx.ip}` });

  router.post('/auth/register', perIp, idem, async (ctx) => {
    const body = parse(RegisterRequest, ctx.request.body);
    // a taken email is the command's email_taken: 409 CONFLICT
    const session = await registerPushAccount(deps.db, body);
    ctx.status = 201;
    ctx.body = await authResult(deps, session);
    carriesSecret(ctx);
  });

  router.post('/auth/login', perIp, idem, async (ctx) => {
    const body = parse(LoginRequest, ctx.request.body);
    // an unknown email and a wrong password: the same null, the same 401
    const session = await logInPushUser(deps.db, body.email, body.password);
    if (!session) throw errors.unauthorized('Invalid email or password');
    ctx.body = await authResult(deps, session);
    carriesSecret(ctx);
  });

  router.post('/auth/refresh', perIp, idem, async (ctx) => {
    const body = parse(RefreshRequest, ctx.request.body);
    const session = await refreshPushSession(deps.db, deps.logger, body.refreshToken);
    if (!session) throw errors.unauthorized('Invalid refresh token');
    ctx.body = await authResult(deps, session);
    carriesSecret(ctx);
  });

  // the set-password link (docs/trial-onboarding.md): who it is for, then the password
  router.post('/auth/setup-token', perIp, idem, async (ctx) => {
    const { token } = parse(SetupTokenRequest, ctx.request.body);
    const info = await setupTokenInfo(deps.db, token, nowOf(deps));
    ctx.body = { ...info, expiresAt: isoOrNull(info.expiresAt) };
    carriesSecret(ctx);
  });

  router.post('/auth/set-password', perIp, idem, async (ctx) => {
    const body = parse(SetPasswordRequest, ctx.request.body);
    const session = await setPasswordWithToken(deps.db, body.token, body.password, nowOf(deps));
    ctx.body = await authResult(deps, session);
    carriesSecret(ctx);
  });

  router.get('/auth/me', pushAuth(deps, { schemes: ['user'] }), async (ctx) => {
    const p = principalOf(ctx);
    const user = p.kind === 'user' ? await findPushUserById(deps.db, p.userId) : null;
    if (!user) throw errors.unauthorized('This account no longer exists');
    ctx.body = presentUser(user);
  });

  return router;
}
