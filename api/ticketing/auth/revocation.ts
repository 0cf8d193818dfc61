import type Redis from 'ioredis';

/**
 * Revocation across API processes.
 *
 * Postgres (`api_keys.revoked_at`) is the record; Redis carries a marker that every
 * process checks on every authenticated request, inside the same Lua call as the rate
 * limit (rate-limit.ts), so the check costs no extra round trip. The in-process caches
 * (verified tokens, key rows) therefore never need to be told: whatever they hold, a
 * marked key is refused, including access tokens issued before the revocation.
 *
 * The marker only has to outlive those caches: a key row is re-read from Postgres at
 * least every 30 s and then carries `revoked_at` itself. It is kept for a day anyway,
 * which also covers a process that cached a row just before the revocation committed.
 * If Redis lost the marker (flush, failover), revocation still takes effect within the
 * 30 s key-cache lifetime.
 */
export const REVOCATION_MARKER_TTL_SECONDS = 24 * 3600;

// The hash tag `{keyId}` keeps the marker and the rate-limit log in one cluster slot,
// which a multi-key Lua script needs on Redis Cluster.
export const revokedMarker = (keyId: string) => `auth:{${keyId}}:revoked`;
export const rateLimitLog = (keyId: string) => `auth:{${keyId}}:rl`;

export async function markRevoked(redis: Redis, keyId: string): Promise<void> {
  await redis.set(revokedMarker(keyId), '1', 'EX', REVOCATION_MARKER_TTL_SECONDS);
}
