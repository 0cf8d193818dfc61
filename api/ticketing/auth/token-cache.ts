/**
 * Small in-process caches for the authenticate hot path. Verifying an RS256 token costs
 * ~120 µs of CPU and a key lookup a Postgres round trip; both answers are stable for a
 * while, so they are remembered. Neither cache can let a revoked key through: the
 * revocation check runs against Redis on every request (see revocation.ts), whatever
 * the caches hold.
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

// Process-wide counters: every app instance in the process adds to them, which is what
// a benchmark or a metrics scrape of the process wants to see.
const tokenCounters: CacheCounters = { hits: 0, misses: 0 };
const keyCounters: CacheCounters = { hits: 0, misses: 0 };
// Weak, so the caches of an app that is gone (tests start many) can be collected.
const caches = new Set<WeakRef<{ tokens: TtlCache<unknown>; keys: TtlCache<unknown> }>>();

export function newAuthCaches<T, K>(maxTokens = 100_000, maxKeys = 20_000) {
  const pair = { tokens: new TtlCache<T>(maxTokens, tokenCounters), keys: new TtlCache<K>(maxKeys, keyCounters) };
  caches.add(new WeakRef(pair) as never);
  return pair;
}

export interface AuthCacheStats {
  tokens: CacheCounters & { size: number };
  keys: CacheCounters & { size: number };
}

/** Hit/miss counters of the verified-token and key-lookup caches of this process. */
export function authCacheStats(): AuthCacheStats {
  let tokenSize = 0;
  let keySize = 0;
  for (const ref of caches) {
    const c = ref.deref();
    if (!c) {
      caches.delete(ref);
      continue;
    }
    tokenSize += c.tokens.size;
    keySize += c.keys.size;
  }
  return { tokens: { ...tokenCounters, size: tokenSize }, keys: { ...keyCounters, size: keySize } };
}

export function resetAuthCacheStats(): void {
  tokenCounters.hits = tokenCounters.misses = keyCounters.hits = keyCounters.misses = 0;
}
