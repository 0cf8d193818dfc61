// Concurrent asks for one key share one load: a cache that is cold under load (a start,
// an expiry) sends one query per key, not one per waiting request.
export function singleFlight<V>(): (key: string, load: () => Promise<V>) => Promise<V> {
  const inflight = new Map<string, Promise<V>>();
  return (key, load) => {
    let p = inflight.get(key);
    if (!p) {
      p = load().finally(() => inflight.delete(key));
      inflight.set(key, p);
    }
    return p;
  };
}
