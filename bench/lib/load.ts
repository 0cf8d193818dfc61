// Load generation and statistics. HTTP load comes from autocannon's programmatic API;
// every response time is also recorded here (autocannon's own summary has no p95).
// Each run is bounded by its duration (and autocannon's per-request timeout).
// eslint-disable-next-line @typescript-eslint/no-var-requires
const autocannon = require('autocannon') as (opts: object, cb?: (err: Error | null, res: any) => void) => any;

export interface RunStats {
  /** successful (2xx) responses per second over the measured window */
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** first non-2xx status codes seen, to diagnose failures */
  statusCodes: Record<string, number>;
}

export interface Scenario {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** builds each request's path (and body); called once per request */
  next?: (i: number) => { path: string; body?: string };
  path?: string;
  connections: number;
  durationSec: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function summarize(latencies: number[], ok: number, seconds: number, extra: Omit<RunStats, 'rps' | 'p50' | 'p95' | 'p99' | 'max' | 'mean' | 'requests'> & { requests: number }): RunStats {
  const sorted = Float64Array.from(latencies).sort();
  const arr = Array.from(sorted);
  const mean = arr.reduce((s, v) => s + v, 0) / Math.max(1, arr.length);
  return {
    rps: ok / seconds,
    p50: percentile(arr, 50),
    p95: percentile(arr, 95),
    p99: percentile(arr, 99),
    max: arr.length ? arr[arr.length - 1] : NaN,
    mean,
    ...extra,
  };
}

/** One bounded autocannon run. */
export function runHttp(s: Scenario): Promise<RunStats> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let ok = 0;
    let counter = 0;
    const method = s.method ?? 'GET';
    const request: Record<string, unknown> = { method, path: s.path ?? '/' };
    // autocannon calls setupRequest whenever the key exists, so only set it when needed
    if (s.next) {
      request.setupRequest = (req: any) => {
        const n = s.next!(counter++);
        return { ...req, path: n.path, ...(n.body !== undefined ? { body: n.body } : {}) };
      };
    }
    const requests = [request];
    const started = process.hrtime.bigint();
    const inst = autocannon(
      {
        url: s.url,
        connections: s.connections,
        duration: s.durationSec,
        timeout: 10,
        headers: { 'content-type': 'application/json', ...(s.headers ?? {}) },
        requests,
      },
      (err, res) => {
        if (err) return reject(err);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        resolve(
          summarize(latencies, ok, Math.min(seconds, res.duration || seconds), {
            requests: latencies.length,
            non2xx: res.non2xx,
            errors: res.errors,
            timeouts: res.timeouts,
            statusCodes,
          }),
        );
      },
    );
    inst.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      if (statusCode >= 200 && statusCode < 300) ok++;
      else statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
  });
}

/**
 * A closed-loop driver for anything that is not HTTP: `connections` concurrent loops
 * calling `op` until `durationSec` is over (the same shape autocannon produces).
 */
export async function runLoop(op: (i: number) => Promise<void>, connections: number, durationSec: number): Promise<RunStats> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let counter = 0;
  const firstErrors: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + durationSec * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await op(counter++);
          ok++;
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          const msg = String((err as Error)?.message ?? err).slice(0, 80);
          firstErrors[msg] = (firstErrors[msg] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return summarize(latencies, ok, seconds, { requests: ok + errors, non2xx: 0, errors, timeouts: 0, statusCodes: firstErrors });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface Aggregate {
  runs: RunStats[];
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** all runs' non-2xx + errors + timeouts */
  failures: number;
}

/** Medians over runs, metric by metric. */
export function aggregate(runs: RunStats[]): Aggregate {
  return {
    runs,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    p99: median(runs.map((r) => r.p99)),
    failures: runs.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0),
  };
}
