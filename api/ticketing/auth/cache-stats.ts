// Hit/miss counters of the ticketing API's verified-token and key caches, process-wide:
// every app instance in the process adds to them, which is what a benchmark or a metrics
// scrape of the process wants to see.
import type { CacheCounters } from '../../kit/auth/ttl-cache';

export const tokenCounters: CacheCounters = { hits: 0, misses: 0 };
export const keyCounters: CacheCounters = { hits: 0, misses: 0 };

interface Sized {
  readonly size: number;
}
// Weak, so the caches of an app that is gone (tests start many) can be collected.
const caches = new Set<WeakRef<{ tokens: Sized; keys: Sized }>>();

/** Counts the caches of one app instance in authCacheStats' sizes. */
export function trackCacheSizes(pair: { tokens: Sized; keys: Sized }): void {
  caches.add(new WeakRef(pair));
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
