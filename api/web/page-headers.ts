import type { Context } from 'koa';

/**
 * Every response of the pages: only our own scripts, styles and API calls (no inline
 * script, no CDN), never framed, forms never submitted anywhere by the browser itself
 * (the scripts send JSON), and no Referer: the set-password page's address carries the
 * token until its script drops it, so no request it makes may repeat that address.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

export function pageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}
