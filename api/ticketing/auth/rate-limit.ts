import type { Config } from '../../../lib/config';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../../errors';
import { auth } from '../access';
import type { Plan } from '../../../db/entities/organization.entity';
import { rateLimitLog, revokedMarker } from './revocation';

/** Requests per rolling 60 s window, per API key, from the spec's Limits table. */
export const PLAN_LIMITS: Record<Plan, number> = { starter: 120, growth: 600, scale: 3000 };
export const WINDOW_MS = 60_000;

/**
 * The plan limits, over which a deployment may set `RATE_LIMITS` (Config.rateLimits),
 * e.g. for a benchmark that must not hit 429s. Unset in production: the spec's numbers.
 */
export function planLimits(config: Config): Record<Plan, number> {
  return { ...PLAN_LIMITS, ...(config.rateLimits ?? {}) };
}

/** Outcome of one gate call: the revocation check and the rate limit in one round trip. */
export interface GateResult {
  revoked: boolean;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the oldest request in the window leaves it, i.e. until a slot frees */
  resetSeconds: number;
}

// Sliding-window log: a sorted set of request timestamps per key. Exact (no boundary
// burst as with fixed windows) and atomic, because the whole check-and-add runs as one
// script. Redis's own clock is used so API processes with skewed clocks agree. Refused
// requests are not logged, so a client that keeps retrying during a 429 is not locked
// out longer. The revoked marker is checked first and a revoked key consumes nothing.
const GATE_LUA = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {-1, 0, 0} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, t[1] .. t[2] .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local reset = window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

type GateRedis = Redis & {
  authGate(rl: string, revoked: string, windowMs: number, limit: number, nonce: string): Promise<[number, number, number]>;
};
const defined = new WeakSet<Redis>();

function gateClient(redis: Redis): GateRedis {
  // defineCommand sends EVALSHA and falls back to EVAL once when Redis lacks the script.
  if (!defined.has(redis)) {
    redis.defineCommand('authGate', { numberOfKeys: 2, lua: GATE_LUA });
    defined.add(redis);
  }
  return redis as GateRedis;
}

/** Checks the revoked marker of `keyId` and takes one slot of its window, atomically. */
export async function gate(redis: Redis, keyId: string, limit: number): Promise<GateResult> {
  let reply: [number, number, number];
  try {
    reply = await gateClient(redis).authGate(rateLimitLog(keyId), revokedMarker(keyId), WINDOW_MS, limit, randomBytes(6).toString('hex'));
  } catch {
    // Without Redis neither revocation nor the limit can be enforced: fail closed.
    throw errors.unavailable('Rate limiting is unavailable; retry later');
  }
  const [allowed, count, resetMs] = reply.map(Number);
  if (allowed === -1) return { revoked: true, allowed: false, limit, remaining: 0, resetSeconds: 0 };
  return {
    revoked: false,
    allowed: allowed === 1,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

/** Headers on every authenticated response; throws the 429 when the window is full. */
export function applyRateLimit(ctx: Context, result: GateResult): void {
  ctx.set('X-RateLimit-Limit', String(result.limit));
  ctx.set('X-RateLimit-Remaining', String(result.remaining));
  ctx.set('X-RateLimit-Reset', String(result.resetSeconds));
  if (!result.allowed) throw errors.rateLimited(result.resetSeconds);
}

/**
 * Rate limit per API key by the organization's plan. authenticate() already ran the
 * gate (the revocation check needs the same round trip) and left its result on
 * `ctx.state.rateLimit`; this middleware only runs it itself when used without it.
 */
export function rateLimit(deps: AppDeps): Middleware {
  const limits = planLimits(deps.config);
  return async (ctx, next) => {
    let result = ctx.state.rateLimit as GateResult | undefined;
    if (!result) {
      const a = auth(ctx);
      result = await gate(deps.redis, a.keyId, limits[a.plan]);
      if (result.revoked) throw errors.unauthorized('This API key has been revoked');
    }
    applyRateLimit(ctx, result);
    await next();
  };
}
