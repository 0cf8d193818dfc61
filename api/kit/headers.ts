import type { Context, Middleware } from 'koa';

/**
 * Headers on every response of every API, errors included: `X-Content-Type-Options:
 * nosniff` (no browser guesses a JSON error into HTML), and `Strict-Transport-Security`
 * when the request came over TLS or through a proxy that says so (`X-Forwarded-Proto:
 * https`; browsers ignore the header over plain HTTP, so a forged one does no harm).
 */
export function securityHeaders(): Middleware {
  // not async: one promise less per request (every request passes here)
  return (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    return next();
  };
}

/**
 * Marks a response that carries a secret or a token (a new API key, an access token, a
 * webhook signing secret): `Cache-Control: no-store`, and the idempotency store keeps it
 * only sealed with the secret box (api/kit/idempotency.ts).
 */
export function carriesSecret(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.state.carriesSecret = true;
}
