// The push spec's Limits table ("Limits"), each row a named group that
// RATE_LIMITS can override (`push-auth-ip=5,push-token=50`; docs/benchmarks.md, "Benchmarks
// and limits"). Windows are the kit gate's rolling 60 s.
import type { Bucket } from '../../kit/rate-limit';
import { withOverrides } from '../../kit/rate-limit';
import { perDeps, type AppDeps } from '../../deps';

export const PUSH_LIMIT_DEFAULTS = {
  /** POST /auth/*: per client IP */
  'push-auth-ip': 20,
  /** POST /trial-requests (public): per client IP; the spec sets none, a form is sent a few times at most */
  'push-trial-ip': 5,
  /** POST /devices/register: per API key */
  'push-devices-register': 1000,
  /** POST /event-triggers/fire: per API key */
  'push-event-fire': 5000,
  /** POST /notifications/send: per API key */
  'push-notifications-send': 100,
  /** every other endpoint: per token (a user's tokens share one bucket) or per API key */
  'push-token': 300,
  /** requests without a usable credential (health, openapi.json, failed authentication): per client IP */
  'push-anonymous-ip': 300,
} as const;

export type PushLimitGroup = keyof typeof PUSH_LIMIT_DEFAULTS;

export interface PushLimits {
  limitOf(group: PushLimitGroup): number;
  /** the bucket of a group for one subject (a key id, a user id, an address: `ctx.ip`, the kit's client-IP rule) */
  bucket(group: PushLimitGroup, subject: string): Bucket;
}

export const pushLimits = perDeps(createPushLimits);

function createPushLimits(deps: AppDeps): PushLimits {
  const limits = withOverrides({ ...PUSH_LIMIT_DEFAULTS } as Record<PushLimitGroup, number>, deps.config.rateLimits);
  return {
    limitOf: (group) => limits[group],
    // hash tag on the subject: one slot per bucket on Redis Cluster
    bucket: (group, subject) => ({ key: `push:rl:${group}:{${subject}}`, limit: limits[group] }),
  };
}
