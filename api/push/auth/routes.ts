import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { carriesSecret } from '../../kit/headers';
import { idempotency } from '../../kit/idempotency';
import { applyRateLimit, gate } from '../../kit/rate-limit';
import { parse } from '../../kit/validation';
import { findPushUserByEmail, findPushUserById, insertAccount, isDuplicateEmail } from '../../../db/repositories/push-users';
import { pushLimits } from './limits';
import { principalOf, pushAuth } from './middleware';
import { hashPassword, verifyPassword } from './passwords';
import { LoginRequest, RefreshRequest, RegisterRequest } from './schema';
import { presentUser, refreshSession, startSession } from './sessions';

/** POST /auth/register, /auth/login, /auth/refresh (per-IP limit) and GET /auth/me (a user token). */
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
    const passwordHash = await hashPassword(body.password);
    const userId = randomUUID();
    try {
      await deps.db.transaction((m) =>
        insertAccount(m, {
          userId,
          companyId: randomUUID(),
          email: body.email,
          name: body.name,
          passwordHash,
          companyName: body.name,
        }),
      );
    } catch (err) {
      if (isDuplicateEmail(err)) throw errors.conflict('conflict', 'An account with this email exists already');
      throw err;
    }
    const user = (await findPushUserById(deps.db, userId))!;
    ctx.status = 201;
    ctx.body = await startSession(deps, user);
    carriesSecret(ctx);
  });

  router.post('/auth/login', perIp, idem, async (ctx) => {
    const body = parse(LoginRequest, ctx.request.body);
    // One path for an unknown email and a wrong password: both hash, both answer the same 401.
    const user = await findPushUserByEmail(deps.db, body.email);
    const ok = await verifyPassword(user?.passwordHash ?? null, body.password);
    if (!user || !ok) throw errors.unauthorized('Invalid email or password');
    ctx.body = await startSession(deps, user);
    carriesSecret(ctx);
  });

  router.post('/auth/refresh', perIp, idem, async (ctx) => {
    const body = parse(RefreshRequest, ctx.request.body);
    ctx.body = await refreshSession(deps, body.refreshToken);
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
