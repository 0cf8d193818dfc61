// GET /api/v1/health (no auth) and its OpenAPI path: the spec's `{status, version, timestamp, checks}` with
// `database` and `redis`. A dependency that does not answer within CHECK_TIMEOUT_MS is
// `down` and the whole answer a 503 (with the push envelope's message and code) naming it.
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { json } from '../kit/openapi';
import { applyRateLimit, gate } from '../kit/rate-limit';
import { z } from '../zod';
import { pushLimits } from './auth/limits';
import { ErrorEnvelope, registry } from './openapi';
import { pingDatabase } from '../../db/repositories/health';

const Health = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    version: z.string(),
    timestamp: z.string().datetime(),
    checks: z.object({ database: z.enum(['ok', 'down']), redis: z.enum(['ok', 'down']) }),
    message: z.string().optional(),
    code: z.string().optional(),
  })
  .openapi('PushHealth');

registry.registerPath({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Health of the API and its dependencies (no auth)',
  security: [],
  responses: {
    200: json(Health, 'every dependency answers'),
    429: { description: 'RATE_LIMITED', content: { 'application/json': { schema: ErrorEnvelope } } },
    503: json(Health, 'SERVICE_UNAVAILABLE: a dependency is down (named in checks and message); Retry-After'),
  },
});

/**
 * The per-IP window of requests that need no credential (health, the OpenAPI document).
 * Without Redis nothing can be counted: the request goes on without the headers, so
 * health can still say that Redis is down.
 */
export function anonymousLimit(deps: AppDeps): Middleware {
  const limits = pushLimits(deps);
  return async (ctx, next) => {
    let result;
    try {
      result = await gate(deps.redis, limits.bucket('push-anonymous-ip', ctx.ip));
    } catch {
      result = undefined;
    }
    if (result) applyRateLimit(ctx, result);
    await next();
  };
}
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { version } = require('../../package.json') as { version: string };

const CHECK_TIMEOUT_MS = 2_000;

type CheckStatus = 'ok' | 'down';

async function check(probe: () => Promise<unknown>): Promise<CheckStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export function pushHealth(deps: AppDeps) {
  return async (ctx: Context) => {
    const [database, redis] = await Promise.all([check(() => pingDatabase(deps.db)), check(() => deps.redis.ping())]);
    const down = Object.entries({ database, redis }).filter(([, s]) => s === 'down').map(([name]) => name);
    const body = { status: down.length ? 'unavailable' : 'ok', version, timestamp: new Date().toISOString(), checks: { database, redis } };
    if (down.length) {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      ctx.body = { ...body, message: `Unavailable: ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} down`, code: 'SERVICE_UNAVAILABLE' };
      return;
    }
    ctx.body = body;
  };
}
