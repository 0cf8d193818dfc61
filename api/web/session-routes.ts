// POST, GET and DELETE /settings/session: signing in to the settings pages (and the
// operator page) with an existing credential of one API, and out again (docs/settings.md,
// "Sessions"). Each API's credential check is injected (api/app.ts passes the
// api/<api>/auth/web-sign-in.ts verifiers), so the pages still import no API code.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, errors } from '../kit/errors';
import { failureThrottle } from '../kit/auth/failure-throttle';
import { parse } from '../kit/validation';
import { clearSessionCookie, requireCsrf, requireSameOrigin, setSessionCookie, webSessionStore, type WebSession, type WebSignIn } from '../kit/session';
import { z } from '../zod';

// the kit's input limits already refuse NUL bytes, invalid UTF-8 and deep nesting
const SignInBody = z.discriminatedUnion('api', [
  z.object({ api: z.literal('ticketing'), credential: z.string().min(1).max(4096) }).strict(),
  z.object({ api: z.literal('platform'), credential: z.string().min(1).max(4096) }).strict(),
  z.object({ api: z.literal('push'), email: z.string().min(1).max(254), password: z.string().min(1).max(256) }).strict(),
]);

/** What the pages see of a session: ids, the CSRF token and the two expiries; never the cookie. */
export function presentSession(s: WebSession) {
  return {
    api: s.api,
    label: s.label,
    organizationId: s.organizationId,
    workspaceId: s.workspaceId,
    environment: s.environment,
    csrfToken: s.csrfToken,
    expiresAt: new Date(s.expiresAt).toISOString(),
    idleExpiresAt: new Date(s.idleExpiresAt).toISOString(),
  };
}

export function settingsSessionRouter(deps: AppDeps, verifiers: WebSignIn[]): Router {
  const router = new Router({ prefix: '/settings/session' });
  const store = webSessionStore(deps);
  const cookie = deps.config.webSessions;
  const verifierOf = new Map(verifiers.map((v) => [v.api, v]));
  // failed sign-ins per client address: the kit's one throttle (docs/auth.md)
  const failures = failureThrottle(deps.redis, (ip) => ({ key: `settings:failures:{${ip}}`, limit: deps.config.authFailuresPerIp }));
  const current = (ctx: Context) => ctx.state.webSession as WebSession | undefined;
  const noSession = () => errors.unauthorized('Not signed in');

  router.post('/', async (ctx) => {
    requireSameOrigin(ctx);
    await failures.refuseIfBlocked(ctx.ip);
    const { api, ...input } = parse(SignInBody, ctx.request.body);
    const verifier = verifierOf.get(api);
    if (!verifier) throw errors.validation(`api: '${api}' has no sign-in here`);
    let subject;
    try {
      subject = await verifier.signIn(input, ctx);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await failures.recordFailure(ctx.ip);
      throw err;
    }
    const previous = current(ctx);
    if (previous) await store.end(previous);
    const { cookieValue, session } = await store.create(subject);
    setSessionCookie(ctx, cookie, cookieValue, (session.expiresAt - session.createdAt) / 1000);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = presentSession(session);
  });

  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const session = current(ctx);
    if (!session) throw noSession();
    // a credential revoked or expired since sign-in ends its session here too
    if (!(await verifierOf.get(session.api)?.isCurrent(session))) {
      await store.end(session);
      clearSessionCookie(ctx, cookie);
      throw errors.unauthorized('The session has ended: its credential is no longer valid');
    }
    ctx.body = presentSession(session);
  });

  router.delete('/', async (ctx) => {
    const session = current(ctx);
    if (session) {
      requireCsrf(ctx, session);
      await store.end(session);
    }
    clearSessionCookie(ctx, cookie);
    ctx.status = 204;
  });

  return router;
}
