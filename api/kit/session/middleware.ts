// The app-level half of the settings sessions: a request without an Authorization header
// that carries the session cookie gets its session on `ctx.state.webSession`; each API's
// own authentication then decides whether that session's credential may act
// (sessionFor, below). Only the API paths and /settings/session look: the pages and their
// assets need no session, so they keep answering while Redis is away.
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { readSessionCookie } from './cookie';
import { webSessionStore, type WebSession, type WebSessionApi } from './store';

export function webSessions(deps: AppDeps, paths: string[]): Middleware {
  const store = webSessionStore(deps);
  const o = deps.config.webSessions;
  const covers = (path: string) => paths.some((p) => path === p || path.startsWith(p + '/'));
  return async (ctx, next) => {
    if (!ctx.get('Authorization') && covers(ctx.path)) {
      const value = readSessionCookie(ctx, o);
      const session = value ? await store.get(value) : null;
      if (session) ctx.state.webSession = session;
    }
    await next();
  };
}

/** The request's session when it belongs to `api` (a session of another API is no credential here). */
export function sessionFor(ctx: Context, api: WebSessionApi): WebSession | null {
  const s = ctx.state.webSession as WebSession | undefined;
  return s && s.api === api && !ctx.get('Authorization') ? s : null;
}
