// API keys on the authentication hot path, for every API that has them (ticketing's
// `sk_`/`sdk_` keys, push's app keys). A key lookup is a Postgres round trip; its answer
// is stable for a while, so each process remembers a found row for 30 s and an unknown
// one for 5 s (keys carry 256 random bits: nobody can present a key before it exists).
// Concurrent misses share one query.
//
// Revocation across processes: Postgres is the record; Redis carries a marker per key
// (`revokedMarker(id)`, kept a day) that every request checks inside the same Lua call
// that takes its rate-limit slot (the gate's `blockedKey`, rate-limit.ts), so the check
// costs no extra round trip and a marked key is refused from the next request on in
// every process, whatever its caches hold (access tokens issued before included). The
// marker only has to outlive the caches: a row is read again at least every 30 s and
// then carries its revocation itself, so were Redis to lose the marker (flush,
// failover), revocation would still take effect within the cache's lifetime.
//
// lastUsedAt is advisory: written at most once a minute per key and process, off the
// request path (the request does not wait for it).
import type Redis from 'ioredis';
import type { Logger } from '../../../lib/logger';
import { singleFlight } from '../../../lib/single-flight';
import { TtlCache, type CacheCounters } from './ttl-cache';

export const FOUND_KEY_TTL_MS = 30_000;
const MISSING_KEY_TTL_MS = 5_000;
const MAX_ENTRIES = 20_000;
const TOUCH_INTERVAL_MS = 60_000;
/** The marker must outlive every cached row; a day also covers a row cached just before the revocation committed. */
export const REVOCATION_MARKER_TTL_SECONDS = 24 * 3600;

export interface CredentialCacheOptions<R> {
  redis: Redis;
  logger: Logger;
  /** this cache's hits and misses (each API keeps its own, for benchmarks and tests) */
  counters: CacheCounters;
  /**
   * The Redis key whose existence refuses the key in every process. It carries the hash
   * tag of the key's rate-limit bucket, so the gate script reads both in one cluster slot.
   */
  revokedMarker(id: string): string;
  /** Records a use of the key (lastUsedAt). */
  recordUse(id: string): Promise<unknown>;
  /** Whether a row may be answered from the cache now (default: always); a row that may not is read again, and not cached. */
  servable?(row: R): boolean;
}

export interface CredentialCache<R extends { id: string }> {
  /** The row under `cacheKey`, or null; `load` reads it on a miss (its errors are the caller's). */
  get(cacheKey: string, load: () => Promise<R | null>): Promise<R | null>;
  /** Drops a key from this process's cache (the Redis marker covers the others). */
  forget(id: string): void;
  /** Drops every cached row that `match` picks (e.g. all tokens of one user after a role change). */
  forgetWhere(match: (row: R) => boolean): void;
  /** Records a use of the key at most once a minute, off the request path. */
  touch(id: string): void;
  /** The lastUsedAt write still in flight for the key (every key without one), so a read can show its own use. */
  pendingTouch(id?: string): Promise<void>;
  revokedMarker(id: string): string;
  /** Sets the revocation markers (one SET per key, each in its own cluster slot, pipelined); throws what Redis threw. */
  markRevoked(ids: string[]): Promise<void>;
  readonly size: number;
}

export function credentialCache<R extends { id: string }>(o: CredentialCacheOptions<R>): CredentialCache<R> {
  const rows = new TtlCache<R | null>(MAX_ENTRIES, o.counters);
  const shared = singleFlight<R | null>();
  const servable = o.servable ?? (() => true);
  const touchedAt = new Map<string, number>();
  const touches = new Map<string, Promise<void>>();

  return {
    get(cacheKey, load) {
      const hit = rows.get(cacheKey);
      if (hit === null || (hit !== undefined && servable(hit))) return Promise.resolve(hit);
      return shared(cacheKey, () =>
        load().then((row) => {
          if (!row || servable(row)) rows.set(cacheKey, row, Date.now() + (row ? FOUND_KEY_TTL_MS : MISSING_KEY_TTL_MS));
          return row;
        }),
      );
    },
    forget(id) {
      rows.deleteWhere((row) => row?.id === id);
    },
    forgetWhere(match) {
      rows.deleteWhere((row) => row !== null && match(row));
    },
    touch(id) {
      const now = Date.now();
      if (now - (touchedAt.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
      touchedAt.set(id, now);
      const p = o
        .recordUse(id)
        .then(() => undefined)
        .catch((err) => o.logger.warn({ err, keyId: id }, 'could not record lastUsedAt'))
        .finally(() => touches.delete(id));
      touches.set(id, p);
    },
    async pendingTouch(id) {
      if (id !== undefined) return touches.get(id) ?? Promise.resolve();
      await Promise.all(touches.values());
    },
    revokedMarker: o.revokedMarker,
    async markRevoked(ids) {
      await Promise.all(ids.map((id) => o.redis.set(o.revokedMarker(id), '1', 'EX', REVOCATION_MARKER_TTL_SECONDS)));
    },
    get size() {
      return rows.size;
    },
  };
}
