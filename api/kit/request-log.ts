import type { Context, Middleware, Next } from 'koa';
import type { Logger } from '../../lib/logger';

/**
 * One line per request once it is answered: id, method, path, status, duration, client
 * address and the request headers. Credentials in the headers (Authorization, Cookie,
 * X-Api-Key, X-CSRF-Token) are redacted by the logger's paths (lib/logger.ts), in every environment.
 * The query string is left out: it is not ours to keep, and may carry a secret (the
 * set-password page is opened with its token there); so is the query of a `Referer`
 * (a browser that ignores the pages' `Referrer-Policy: no-referrer` would repeat that
 * address on the page's own requests). Answered health probes (load
 * balancers, `npm start` polling every 250 ms) are left out too: they would drown the rest.
 */
export function requestLog(logger: Logger): Middleware {
  // nothing to log at this level (LOG_LEVEL=warn and up): no timing, no promise of our own
  return (ctx, next) => (logger.isLevelEnabled('info') ? logged(ctx, next) : next());

  async function logged(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const probe = ctx.status < 400 && ctx.path.endsWith('/health');
      if (!probe) {
        logger.info(
          {
            requestId: ctx.state.requestId,
            req: { method: ctx.method, path: ctx.path, ip: ctx.ip, headers: withoutQueries(ctx.headers) },
            res: { status: ctx.status },
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request',
        );
      }
    }
  }
}

/** The headers as logged: a `Referer` without its query string (and fragment). */
function withoutQueries(headers: Context['headers']): Context['headers'] {
  const referer = headers.referer;
  if (typeof referer !== 'string' || !/[?#]/.test(referer)) return headers;
  return { ...headers, referer: referer.replace(/[?#].*$/s, '') };
}
