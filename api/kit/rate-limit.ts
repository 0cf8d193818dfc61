// The rate-limit gate every API uses: a rolling window per bucket, in Redis. What a
// bucket is (an API key, a token, a user, an IP address; reads apart from writes) and
// its limit and window are the caller's inputs; the spec of each API decides them.
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Context } from 'koa';
import { errors } from './errors';

export const DEFAULT_WINDOW_MS = 60_000;

/** Outcome of one gate call. */
export interface GateResult {
  /** the bucket's block marker was set (e.g. a revoked key): nothing was counted */
  blocked: boolean;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the oldest request in the window leaves it, i.e. until a slot frees */
  resetSeconds: number;
}

export interface Bucket {
  /** the Redis key of the bucket's window, e.g. `auth:{key_…}:rl` or `auth:ip:{203.0.113.9}:failures` */
  key: string;
  limit: number;
  windowMs?: number;
  /**
   * A key whose existence refuses the request before counting (an API key's revocation
   * marker), checked in the same round trip. Same hash tag as `key` on Redis Cluster.
   */
  blockedKey?: string;
}

// Sliding-window log: a sorted set of request timestamps per bucket. Exact (no boundary
// burst as with fixed windows) and atomic, because the whole check-and-add runs as one
// script. Redis's own clock is used so API processes with skewed clocks agree. Refused
// requests are not logged, so a client that keeps retrying during a 429 is not locked
// out longer. The block marker is checked first and a blocked request consumes nothing.
// A peek reads the window without taking a slot (whether one is free, and when one frees).
const GATE_LUA = `
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return {-1, 0, 0} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  allowed = 1
  if ARGV[5] ~= 'peek' then
    redis.call('ZADD', KEYS[1], now, t[1] .. t[2] .. ARGV[3])
    redis.call('PEXPIRE', KEYS[1], window)
    count = count + 1
  end
end
local reset = window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

type GateRedis = Redis & {
  rateGate(log: string, blocked: string, windowMs: number, limit: number, nonce: string, checkBlocked: string, mode: GateMode): Promise<[number, number, number]>;
};
const defined = new WeakSet<Redis>();

function gateClient(redis: Redis): GateRedis {
  // defineCommand sends EVALSHA and falls back to EVAL once when Redis lacks the script.
  if (!defined.has(redis)) {
    redis.defineCommand('rateGate', { numberOfKeys: 2, lua: GATE_LUA });
    defined.add(redis);
  }
  return redis as GateRedis;
}

/** `take`: one slot of the window when one is free; `peek`: only whether one is (nothing is counted). */
export type GateMode = 'take' | 'peek';

/** Takes one slot of the bucket's window (after its block check), atomically. */
export async function gate(redis: Redis, bucket: Bucket, mode: GateMode = 'take'): Promise<GateResult> {
  const { limit } = bucket;
  let reply: [number, number, number];
  try {
    reply = await gateClient(redis).rateGate(
      bucket.key,
      bucket.blockedKey ?? bucket.key,
      bucket.windowMs ?? DEFAULT_WINDOW_MS,
      limit,
      randomBytes(6).toString('hex'),
      bucket.blockedKey ? '1' : '0',
      mode,
    );
  } catch {
    // Without Redis neither the limit nor the block marker can be enforced: fail closed.
    throw errors.unavailable('Rate limiting is unavailable; retry later');
  }
  const [allowed, count, resetMs] = reply.map(Number);
  if (allowed === -1) return { blocked: true, allowed: false, limit, remaining: 0, resetSeconds: 0 };
  return {
    blocked: false,
    allowed: allowed === 1,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

/** `X-RateLimit-Limit/Remaining/Reset` on the response; throws the 429 when the window is full. */
export function applyRateLimit(ctx: Context, result: GateResult): void {
  ctx.set('X-RateLimit-Limit', String(result.limit));
  ctx.set('X-RateLimit-Remaining', String(result.remaining));
  ctx.set('X-RateLimit-Reset', String(result.resetSeconds));
  if (!result.allowed) throw errors.rateLimited(result.resetSeconds);
}

/**
 * A spec's limits with the `RATE_LIMITS` overrides (Config.rateLimits) applied by name:
 * plan names for /v1 (`scale=100000`), and whatever group names a later API gives its
 * limits. Unset in production: the spec's numbers.
 */
export function withOverrides<N extends string>(defaults: Record<N, number>, overrides: Record<string, number> | undefined): Record<N, number> {
  const out = { ...defaults };
  for (const name of Object.keys(defaults) as N[]) {
    const v = overrides?.[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}
