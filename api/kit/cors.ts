import type { Context, Middleware } from 'koa';

/**
 * CORS for the few endpoints a first-party web page calls straight from the browser (the
 * trial form, sign-in, set-password): docs/trial-onboarding.md, "CORS". Only `origins`
 * (exact origins; scheme and host compared without letter case) get answers, only on
 * `paths` (exact, or `/prefix/*` for one segment below the prefix), and only for POST: no
 * credentials mode (these endpoints use no cookies) and no Authorization header, so a
 * browser cannot send a bearer token cross-origin. A preflight from an allowed origin is
 * answered here (204) before routing, so it spends no rate limit and needs no route of
 * its own; one from any other origin goes on as any OPTIONS does (Allow, or 404) and never
 * carries Access-Control-Allow-Origin. Mounted outside the error middleware, so error
 * answers (400, 401, 429, 503) carry the headers too: a page can read their envelope and
 * Retry-After. `Vary: Origin` goes on every answer of these paths, whatever the origin,
 * so no cache hands one origin's answer to another.
 */
export interface CorsOptions {
  origins: readonly string[];
  paths: readonly string[];
}

export const CORS_ALLOW_METHODS = 'POST, OPTIONS';
export const CORS_ALLOW_HEADERS = ['Content-Type', 'Idempotency-Key'];
export const CORS_EXPOSE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed'];
export const CORS_MAX_AGE_SECONDS = 600;

/** `scheme://host[:port]` lower-cased, or undefined for anything that is not a bare origin (paths, `null`, user info). */
export function normalOrigin(raw: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/i.test(raw)) return undefined;
  try {
    const origin = new URL(raw).origin;
    return origin === 'null' ? undefined : origin.toLowerCase();
  } catch {
    return undefined;
  }
}

function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.endsWith('/*')));
  const prefixes = patterns.filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1));
  return (raw) => {
    const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw; // the routers ignore a trailing slash
    return exact.has(path) || prefixes.some((p) => path.startsWith(p) && path.length > p.length && !path.slice(p.length).includes('/'));
  };
}

export function cors(opts: CorsOptions): Middleware {
  const allowed = new Set(opts.origins.map(normalOrigin).filter((o): o is string => o !== undefined));
  const isPublic = pathMatcher(opts.paths);
  const allowHeaders = CORS_ALLOW_HEADERS.join(', ');
  const exposeHeaders = CORS_EXPOSE_HEADERS.join(', ');

  const allowedOrigin = (ctx: Context): string | undefined => {
    const origin = ctx.get('Origin');
    const normal = origin ? normalOrigin(origin) : undefined;
    // echoed as the browser sent it: it compares Access-Control-Allow-Origin byte for byte
    return normal !== undefined && allowed.has(normal) ? origin : undefined;
  };

  return (ctx, next) => {
    if (!isPublic(ctx.path)) return next();
    ctx.vary('Origin');
    const origin = allowedOrigin(ctx);
    if (!origin) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
      // the fixed list: a browser refuses the request when it asked for a header not in it
      ctx.set('Access-Control-Allow-Headers', allowHeaders);
      ctx.set('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', exposeHeaders);
    return next();
  };
}
