// Push API keys on the authentication hot path (`POST /devices/register` is called on
// every app launch). A key lookup is a Postgres round trip (three tables joined); its
// answer is stable for a while, so each process remembers it for 30 s, as the ticketing
// API does (api/ticketing/auth). Nothing that must take effect at once depends on the
// cache:
//   - revocation: DELETE /api-keys/{id} (and DELETE /apps/{id} for the app's keys) sets a
//     Redis marker first, and every request checks it inside the same Lua call that takes
//     its rate-limit slot (blockedKey of the kit's gate): no extra round trip, every
//     process refuses the key from the next request on, whatever its cache holds;
//   - trials: the cached row carries the trial's end, checked against the clock on each
//     request, and a row whose trial has ended is never served from the cache (it is read
//     again, so an operator's extension works at once).
import type Redis from 'ioredis';
import { hashApiKey } from '../../../lib/api-keys';
import { findLivePushKeyByHash, type PushKeyPrincipalRow } from '../../../db/repositories/push-api-keys';
import { TtlCache } from '../../ticketing/auth/token-cache';
import { perDeps, type AppDeps } from '../../deps';
import { singleFlight } from '../../../lib/single-flight';
import { errors } from '../../kit/errors';
import { isDependencyDown } from '../../kit/dependency-errors';

/** A found key is reused this long; an unknown hash (nobody can present a key before it exists) for 5 s. */
export const PUSH_KEY_TTL_MS = 30_000;
const MISSING_KEY_TTL_MS = 5_000;
/** The marker must outlive every cached row; a day also covers a row cached just before the revocation. */
export const PUSH_REVOCATION_MARKER_TTL_SECONDS = 24 * 3600;

/**
 * The revocation marker of a key. Its hash tag is the key's rate-limit subject
 * (`{key:<id>}`, api/push/auth/limits.ts), so the gate script reads both in one slot.
 */
export const pushKeyRevokedMarker = (keyId: string) => `push:revoked:{key:${keyId}}`;

export interface PushApiKeys {
  /** The live key for a presented secret, or null; the trial state as of now. */
  resolve(secret: string): Promise<PushKeyPrincipalRow | null>;
  /** Refuses the keys from the next request on in every process (Redis marker), then forgets them here. */
  revoke(keyIds: string[]): Promise<void>;
}

const counters = { hits: 0, misses: 0 };

export const pushApiKeys = perDeps(createPushApiKeys);

function createPushApiKeys(deps: AppDeps): PushApiKeys {
  const cache = new TtlCache<PushKeyPrincipalRow | null>(20_000, counters);
  const shared = singleFlight<PushKeyPrincipalRow | null>();
  const ended = (row: PushKeyPrincipalRow) => row.trialExpired || (row.trialEndsAt !== null && row.trialEndsAt.getTime() <= Date.now());

  // a database that is down is the kit's 503 (api/kit/dependency-errors.ts); a bug stays a 500
  const load = (hash: string) =>
    shared(hash, () =>
      findLivePushKeyByHash(deps.db, hash).then((row) => {
        // an ended trial is read again next time: an extension must work at once
        if (!row || !row.trialExpired) cache.set(hash, row, Date.now() + (row ? PUSH_KEY_TTL_MS : MISSING_KEY_TTL_MS));
        return row;
      }),
    );

  return {
    async resolve(secret) {
      const hash = hashApiKey(secret);
      const hit = cache.get(hash);
      if (hit === null) return null;
      if (hit && !ended(hit)) return hit;
      return load(hash);
    },
    async revoke(keyIds) {
      if (!keyIds.length) return;
      const redis: Redis = deps.redis;
      try {
        // one SET per key (each in its own cluster slot), pipelined
        await Promise.all(keyIds.map((id) => redis.set(pushKeyRevokedMarker(id), '1', 'EX', PUSH_REVOCATION_MARKER_TTL_SECONDS)));
      } catch (err) {
        // nothing is revoked yet: the client retries the DELETE (Redis down, by the kit's one
        // classifier; anything else is a bug and stays a 500)
        if (!isDependencyDown(err)) throw err;
        deps.logger.error({ err }, 'push API key revocation marker not set');
        throw errors.unavailable('The key cannot be revoked right now; retry the request');
      }
      const gone = new Set(keyIds);
      cache.deleteWhere((row) => row !== null && gone.has(row.id));
    },
  };
}

/** Hit/miss counters of the push key cache in this process (benchmarks, tests). */
export function pushKeyCacheStats(): { hits: number; misses: number } {
  return { ...counters };
}
