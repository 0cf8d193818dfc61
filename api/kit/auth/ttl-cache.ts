/**
 * A small in-process cache for the authentication hot path. Verifying an RS256 token
 * costs ~120 µs of CPU and a key lookup a Postgres round trip; both answers are stable
 * for a while, so they are remembered. No cache can let a revoked key through: the
 * revocation marker is checked against Redis on every request (credential-cache.ts),
 * whatever the caches hold.
 */

interface Entry<V> {
  value: V;
  until: number;
}

export interface CacheCounters {
  hits: number;
  misses: number;
}

/**
 * A Map with per-entry expiry and a size cap. Eviction drops the oldest insertion
 * (Map iteration order): cheap, and good enough, because the cap exists only to bound
 * memory under a flood of distinct credentials.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly maxEntries: number,
    private readonly counters: CacheCounters,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (e && e.until > now) {
      this.counters.hits++;
      return e.value;
    }
    if (e) this.entries.delete(key);
    this.counters.misses++;
    return undefined;
  }

  set(key: string, value: V, until: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches; used when a key is revoked in this process. */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [k, e] of this.entries) if (match(e.value)) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }
}
