// The /v1 event source: `POST /v1/players` with a new playerId at a fixed, open-loop rate
// (call i is due at start + i / rate, whatever the earlier calls are doing, so a slow
// system meets the load it would meet in production instead of slowing the generator
// down). Each new player commits a `player.created` event into the outbox in the
// API's own transaction. Bounded: `count` calls, each abandoned after 30 s. The platform
// phase's source (platform-source.ts) shares the request and the summary below.
import http from 'node:http';
import { percentile } from '../lib/load';
import { sleep } from '../lib/procs';

export interface Call {
  /** what the call made: the /v1 playerId, or the platform ticket id with its step */
  id: string;
  /** the receiver keys (receiver.ts, keyOf) of the events the call made, known once it is answered: one delivery per endpoint each */
  keys: string[];
  /** answered with the success status of its kind */
  ok?: boolean;
  /** performance.now() when the call was due and when it was sent */
  due: number;
  start: number;
  end?: number;
  status?: number;
  error?: string;
}

export interface SourceOptions {
  api: string;
  token: string;
  workspaceId: string;
  /** playerIds are `${prefix}-${i}`: unique per run and per phase */
  prefix: string;
  /** events a second */
  rate: number;
  /** events in all */
  count: number;
}

/** A phase's event source: /v1 players (runSource) or platform ticket changes (platform-source.ts). */
export type EventSource = (o: SourceOptions) => Promise<SourceResult>;

export interface SourceResult {
  calls: Call[];
  /** the calls' own rate: count ÷ (last start − first start) */
  achievedRate: number;
  ok: number;
  failed: number;
  statusCodes: Record<string, number>;
  api: { p50: number; p95: number; p99: number; max: number };
  /** how late the generator sent calls (start − due): large values mean the bench process itself was starved */
  lateness: { p50: number; p99: number; max: number };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });

/** One JSON request on the keep-alive agent; `json` = read the answer's body (else it is drained unread). */
export function request(
  method: string,
  url: URL,
  token: string,
  body: string,
  json = false,
): Promise<{ status?: number; error?: string; body?: any }> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        if (json) res.on('data', (c: Buffer) => chunks.push(c));
        else res.resume();
        res.on('end', () => {
          let parsed: any;
          try {
            parsed = json ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', (err) => resolve({ status: res.statusCode, error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', (err) => resolve({ error: err.message }));
    req.end(body);
  });
}

export async function runSource(o: SourceOptions): Promise<SourceResult> {
  const url = new URL('/v1/players', o.api);
  const calls: Call[] = [];
  const pending: Promise<void>[] = [];
  const interval = 1000 / o.rate;
  const t0 = performance.now() + 5;
  let i = 0;
  while (i < o.count) {
    const now = performance.now();
    while (i < o.count && t0 + i * interval <= now) {
      const playerId = `${o.prefix}-${i}`;
      const call: Call = { id: playerId, keys: [playerId], due: t0 + i * interval, start: performance.now() };
      calls.push(call);
      const body = JSON.stringify({ workspaceId: o.workspaceId, playerId, displayName: `Bench player ${i}` });
      pending.push(
        request('POST', url, o.token, body).then((r) => {
          call.end = performance.now();
          call.status = r.status;
          call.ok = r.status === 200;
          call.error = r.error;
        }),
      );
      i++;
    }
    if (i < o.count) await sleep(Math.max(0, t0 + i * interval - performance.now()));
  }
  await Promise.all(pending);
  return summarize(calls);
}

/** The calls' own figures: rate, answers, API latency, the generator's lateness. */
export function summarize(calls: Call[]): SourceResult {
  const statusCodes: Record<string, number> = {};
  for (const c of calls) {
    const k = c.status ? String(c.status) : `error: ${c.error ?? '?'}`;
    statusCodes[k] = (statusCodes[k] ?? 0) + 1;
  }
  const ok = calls.filter((c) => c.ok).length;
  const lat = calls.filter((c) => c.end !== undefined).map((c) => c.end! - c.start).sort((a, b) => a - b);
  const late = calls.map((c) => c.start - c.due).sort((a, b) => a - b);
  const span = calls.length > 1 ? (calls[calls.length - 1].start - calls[0].start) / 1000 : NaN;
  return {
    calls,
    achievedRate: (calls.length - 1) / span,
    ok,
    failed: calls.length - ok,
    statusCodes,
    api: { p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99), max: lat[lat.length - 1] ?? NaN },
    lateness: { p50: percentile(late, 50), p99: percentile(late, 99), max: late[late.length - 1] ?? NaN },
  };
}
