// The platform spec's Limits table: reads 120 and writes 60 a minute per token on a rolling
// 60 s window (the kit gate), each a named group that RATE_LIMITS can override for
// benchmarks and load tests (`platform-read=100000,platform-write=100000`; docs/benchmarks.md)
// and an organisation's own limits (npm run admin -- set-limits) override for its tokens.
import type { Bucket } from '../../kit/rate-limit';
import { withOverrides } from '../../kit/rate-limit';
import { perDeps, type AppDeps } from '../../deps';

export const PLATFORM_LIMIT_DEFAULTS = {
  /** GET (and HEAD): per token */
  'platform-read': 120,
  /** every other method: per token */
  'platform-write': 60,
  /** requests without a usable token (failed authentication): per client IP */
  'platform-anonymous-ip': 120,
} as const;

export type PlatformLimitGroup = keyof typeof PLATFORM_LIMIT_DEFAULTS;

export interface PlatformLimits {
  /** the group's limit: the organisation's override when it has one, else the configured default */
  limitOf(group: PlatformLimitGroup, override?: number | null): number;
  bucket(group: PlatformLimitGroup, subject: string, override?: number | null): Bucket;
}

export const platformLimits = perDeps(createPlatformLimits);

function createPlatformLimits(deps: AppDeps): PlatformLimits {
  const limits = withOverrides({ ...PLATFORM_LIMIT_DEFAULTS } as Record<PlatformLimitGroup, number>, deps.config.rateLimits);
  const limitOf = (group: PlatformLimitGroup, override?: number | null) => override ?? limits[group];
  return {
    limitOf,
    // hash tag on the subject: one slot per bucket on Redis Cluster
    bucket: (group, subject, override) => ({ key: `platform:rl:${group}:{${subject}}`, limit: limitOf(group, override) }),
  };
}
