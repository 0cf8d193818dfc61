import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { errors } from '../errors';

// Failed authentication per client IP (finding 11): a rolling 60 s log of failures per
// address in Redis. While an address has `limit` failures in its window, every attempt
// from it is refused with 429 *before* its key is looked at, so a right key gives no
// different answer than a wrong one until the window frees. Successes are not logged.
// Redis's clock decides, so every API process agrees.
const WINDOW_MS = 60_000;
const THROTTLE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if ARGV[3] == 'record' then
  redis.call('ZADD', KEYS[1], now, t[1] .. t[2] .. ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
end
local count = redis.call('ZCARD', KEYS[1])
if count < tonumber(ARGV[2]) then return 0 end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + window - now
`;

type ThrottleRedis = Redis & {
  authFailures(key: string, windowMs: number, limit: number, mode: 'check' | 'record', nonce: string): Promise<number>;
};
const defined = new WeakSet<Redis>();

function client(redis: Redis): ThrottleRedis {
  if (!defined.has(redis)) {
    redis.defineCommand('authFailures', { numberOfKeys: 1, lua: THROTTLE_LUA });
    defined.add(redis);
  }
  return redis as ThrottleRedis;
}

export const failureLog = (ip: string) => `auth:ip:{${ip}}:failures`;

export interface FailureThrottle {
  /** 429 (with Retry-After) while `ip` has used up its failures */
  refuseIfBlocked(ip: string): Promise<void>;
  /** logs one failure of `ip` */
  recordFailure(ip: string): Promise<void>;
}

export function failureThrottle(redis: Redis, limit: number): FailureThrottle {
  const run = async (ip: string, mode: 'check' | 'record') => {
    try {
      return Number(await client(redis).authFailures(failureLog(ip), WINDOW_MS, limit, mode, randomBytes(6).toString('hex')));
    } catch {
      // without Redis the throttle cannot hold: fail closed, as the rate limit does
      throw errors.unavailable('Rate limiting is unavailable; retry later');
    }
  };
  return {
    async refuseIfBlocked(ip) {
      const waitMs = await run(ip, 'check');
      if (waitMs > 0) throw errors.rateLimited(Math.max(1, Math.ceil(waitMs / 1000)));
    },
    async recordFailure(ip) {
      await run(ip, 'record');
    },
  };
}
