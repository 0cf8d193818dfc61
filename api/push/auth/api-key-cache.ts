// Push API keys on the authentication hot path (`POST /devices/register` is called on
// every app launch): the kit's credential cache (api/kit/auth/credential-cache.ts) over
// the key lookup (three tables joined), so a key is read from Postgres at most every 30 s
// per process. Nothing that must take effect at once depends on the cache:
//   - revocation: DELETE /api-keys/{id} (and DELETE /apps/{id} for the app's keys) sets a
//     Redis marker first, and every request checks it inside the same Lua call that takes
//     its rate-limit slot (blockedKey of the kit's gate): no extra round trip, every
//     process refuses the key from the next request on, whatever its cache holds;
//   - trials: the cached row carries the trial's end, checked against the clock on each
//     request, and a row whose trial has ended is never served from the cache (it is read
//     again, so an operator's extension works at once).
import { hashApiKey } from '../../../lib/api-keys';
import { findLivePushKeyByHash, touchPushApiKey, type PushKeyPrincipalRow } from '../../../db/repositories/push-api-keys';
import { perDeps, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { credentialCache } from '../../kit/auth/credential-cache';
import { isDependencyDown } from '../../kit/dependency-errors';

/**
 * The revocation marker of a key. Its hash tag is the key's rate-limit subject
 * (`{key:<id>}`, api/push/auth/limits.ts), so the gate script reads both in one slot.
 */
export const pushKeyRevokedMarker = (keyId: string) => `push:revoked:{key:${keyId}}`;

export interface PushApiKeys {
  /** The live key for a presented secret, or null; the trial state as of now. */
  resolve(secret: string): Promise<PushKeyPrincipalRow | null>;
  /** Records a use of the key (lastUsedAt) at most once a minute, off the request path. */
  touch(keyId: string): void;
  /** Waits for the lastUsedAt writes still in flight in this process, so a list shows them. */
  pendingTouches(): Promise<void>;
  /** Refuses the keys from the next request on in every process (Redis marker), then forgets them here. */
  revoke(keyIds: string[]): Promise<void>;
}

const counters = { hits: 0, misses: 0 };

export const pushApiKeys = perDeps(createPushApiKeys);

function createPushApiKeys(deps: AppDeps): PushApiKeys {
  const ended = (row: PushKeyPrincipalRow) => row.trialExpired || (row.trialEndsAt !== null && row.trialEndsAt.getTime() <= Date.now());
  const cache = credentialCache<PushKeyPrincipalRow>({
    redis: deps.redis,
    logger: deps.logger,
    counters,
    revokedMarker: pushKeyRevokedMarker,
    recordUse: (keyId) => touchPushApiKey(deps.db, keyId),
    // an ended trial is read again next time: an extension must work at once
    servable: (row) => !ended(row),
  });

  return {
    // a database that is down is the kit's 503 (api/kit/dependency-errors.ts); a bug stays a 500
    resolve(secret) {
      const hash = hashApiKey(secret);
      return cache.get(hash, () => findLivePushKeyByHash(deps.db, hash));
    },
    touch: cache.touch,
    pendingTouches: () => cache.pendingTouch(),
    async revoke(keyIds) {
      try {
        await cache.markRevoked(keyIds);
      } catch (err) {
        // nothing is revoked yet: the client retries the DELETE (Redis down, by the kit's one
        // classifier; anything else is a bug and stays a 500)
        if (!isDependencyDown(err)) throw err;
        deps.logger.error({ err }, 'push API key revocation marker not set');
        throw errors.unavailable('The key cannot be revoked right now; retry the request');
      }
      for (const id of keyIds) cache.forget(id);
    },
  };
}

/** Hit/miss counters of the push key cache in this process (benchmarks, tests). */
export function pushKeyCacheStats(): { hits: number; misses: number } {
  return { ...counters };
}
