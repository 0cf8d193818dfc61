// CSRF protection of every change made with a session cookie (docs/settings.md,
// "Sessions"): SameSite=Strict already keeps other sites' requests cookie-less; on top of
// it an unsafe request must repeat the session's CSRF token in `X-CSRF-Token` (only our
// own page, which read it from GET /settings/session, knows it), and an Origin header,
// when the browser sends one, must be this host's own.
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { errors } from '../errors';
import type { WebSession } from './store';

export const CSRF_HEADER = 'X-CSRF-Token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isUnsafeMethod = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  // the length is no secret (every token has the same); the compare is constant-time
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * 403 when the browser says the request comes from another origin or site. Also the
 * sign-in's guard (it has no session, so no token yet): another site must not sign a
 * visitor in to an account of its choosing (login CSRF).
 */
export function requireSameOrigin(ctx: Context): void {
  const origin = ctx.get('Origin');
  if (origin && origin !== ctx.origin) throw errors.forbidden('This request comes from another origin');
  if (ctx.get('Sec-Fetch-Site') === 'cross-site') throw errors.forbidden('This request comes from another site');
}

/** 403 (in the envelope of the API that serves the path) unless an unsafe request carries the session's token from our own origin. */
export function requireCsrf(ctx: Context, session: Pick<WebSession, 'csrfToken'>): void {
  if (!isUnsafeMethod(ctx.method)) return;
  requireSameOrigin(ctx);
  if (!sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
    throw errors.forbidden(`A change made with a session needs its CSRF token in ${CSRF_HEADER}`);
  }
}
