// `fn` over a list with at most `limit` calls in flight: for work that waits on a remote
// side (APNs streams, webhook POSTs, workflow cancels) where all at once would open too
// many connections and one at a time would wait too long.

/**
 * `fn` for every item, at most `limit` at once, the results in the items' order. Rejects
 * with the first failure (the calls already running go on); a caller that needs every
 * outcome passes an `fn` that does not reject.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
