// Failed authentication per client IP, the one throttle of every API: each failure takes
// a slot of the address's window (a gate bucket: a rolling 60 s log in Redis, on Redis's
// clock, so every API process agrees); successes take none. An API that refuses an
// address before even looking at its credential while the window is full (ticketing's
// token exchange, so a right key gives no different answer than a wrong one) peeks at the
// window first. Without Redis the throttle cannot hold: the gate fails closed (503).
import type Redis from 'ioredis';
import { errors } from '../errors';
import { gate, type Bucket, type GateResult } from '../rate-limit';

export interface FailureThrottle {
  /** 429 (with Retry-After) while `ip` has used up its failures; counts nothing */
  refuseIfBlocked(ip: string): Promise<void>;
  /** Counts one failure of `ip`: the window after it (not allowed: it was full already). */
  recordFailure(ip: string): Promise<GateResult>;
}

/** `bucketOf(ip)`: the address's window of failures, with its limit. */
export function failureThrottle(redis: Redis, bucketOf: (ip: string) => Bucket): FailureThrottle {
  return {
    async refuseIfBlocked(ip) {
      const window = await gate(redis, bucketOf(ip), 'peek');
      if (!window.allowed) throw errors.rateLimited(window.resetSeconds);
    },
    recordFailure: (ip) => gate(redis, bucketOf(ip)),
  };
}
