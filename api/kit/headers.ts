import type { Context, Middleware } from 'koa';

/**
 * Headers on every response of every API, errors included: `X-Content-Type-Options:
 * nosniff` (no browser guesses a JSON error into HTML).
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
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
