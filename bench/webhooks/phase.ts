// One load phase of the webhook bench: events at a fixed open-loop rate, then a bounded
// wait for their deliveries, then what arrived, how fast and how late. The events come
// from `source`: /v1 new players (the default) or platform ticket changes.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { sleep } from '../lib/procs';
import { dist, type Dist } from './breakdown';
import type { Receiver } from './receiver';
import { runSource, type Call, type EventSource, type SourceResult } from './source';

export interface PhaseOptions {
  name: string;
  api: string;
  token: string;
  workspaceId: string;
  prefix: string;
  rate: number;
  durationSec: number;
  /** subscribed endpoints: deliveries expected per successful call */
  endpoints: number;
  /** how long to wait for the last deliveries once the calls are done */
  drainSec: number;
  /** to wait, after the drain, until no delivery row is pending (every workflow has finished) */
  pool: Pool;
  /** where the events come from; default /v1 new players (source.ts) */
  source?: EventSource;
}

export interface PhaseResult {
  name: string;
  prefix: string;
  rate: number;
  durationSec: number;
  source: Omit<SourceResult, 'calls'>;
  expected: number;
  received: number;
  lost: number;
  /** the first keys of answered calls that arrived at fewer endpoints than subscribed (what "lost" counts) */
  unmatched: string[];
  /** repeated webhook-ids and bad signatures seen at the receiver during the phase */
  duplicates: number;
  badSignature: number;
  /** API call start → arrival at the receiver, every delivery */
  latency: Dist & { mean: number };
  /**
   * the event's own time (its envelope's timestamp / created_at: when the change was made,
   * stamped by the API or the ticket workflow) → arrival, every delivery; wall clocks of
   * two processes on one machine, to the millisecond
   */
  sinceChange: Dist;
  /** p99 of `sinceChange` by 5 s of calls (the run's start against its steady state) */
  sinceChangeP99By5s: number[];
  /** median latency of the deliveries of the phase's first and last 2 s of calls: a growing backlog shows here */
  p50FirstSeconds: number;
  p50LastSeconds: number;
  /** deliveries ÷ (last arrival − first call start) */
  deliveredPerSec: number;
  /** events with every delivery arrived, over the same span */
  eventsPerSec: number;
  /** last arrival − last call start */
  tailMs: number;
  /** time from the last call's start until every delivery had arrived (or the drain gave up) */
  drainWaitMs: number;
  /** then until no delivery row was pending any more: the next phase starts on a quiet pipeline */
  settleMs: number;
  keepsUp: boolean;
  /** this process's event-loop delay during the phase (ms): the receiver's clock is only as good as this */
  benchEventLoopP99: number;
}

/** A phase keeps up when nothing is lost and nothing queues: p99 and the tail stay under a second. */
export const KEEP_UP = { p99Ms: 1000, tailMs: 1000 };

/** Deliveries the receiver has of the answered calls' events, and how many the endpoints should get. */
export function countReceived(calls: Call[], r: Receiver, endpoints: number): { expected: number; received: number } {
  let expected = 0;
  let received = 0;
  for (const c of calls) {
    if (!c.ok) continue;
    expected += c.keys.length * endpoints;
    for (const k of c.keys) received += r.byKey.get(k)?.length ?? 0;
  }
  return { expected, received };
}

export async function runPhase(o: PhaseOptions, r: Receiver): Promise<{ result: PhaseResult; calls: Call[] }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const before = { ...r.counters };
  const count = Math.round(o.rate * o.durationSec);
  const src = await (o.source ?? runSource)({ api: o.api, token: o.token, workspaceId: o.workspaceId, prefix: o.prefix, rate: o.rate, count });
  const { calls, ...source } = src;
  const { expected } = countReceived(calls, r, o.endpoints);
  const lastStart = calls[calls.length - 1].start;
  const drainUntil = performance.now() + o.drainSec * 1000;
  while (countReceived(calls, r, o.endpoints).received < expected && performance.now() < drainUntil) await sleep(50);
  const drainWaitMs = performance.now() - lastStart;
  loop.disable();
  const settleFrom = performance.now();
  while (performance.now() < settleFrom + o.drainSec * 1000) {
    const { rows } = await o.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`);
    if (rows[0].n === 0) break;
    await sleep(100);
  }
  const settleMs = performance.now() - settleFrom;

  const lat: number[] = [];
  const sinceChange: number[] = [];
  const first: number[] = [];
  const last: number[] = [];
  const by5s: number[][] = [];
  let lastArrival = -Infinity;
  let complete = 0;
  const t0 = calls[0].start;
  for (const c of calls) {
    if (!c.ok) continue;
    const arrivals = c.keys.flatMap((k) => r.byKey.get(k) ?? []);
    if (arrivals.length >= c.keys.length * o.endpoints) complete += c.keys.length;
    for (const a of arrivals) {
      const l = a.at - c.start;
      lat.push(l);
      if (Number.isFinite(a.occurredAt)) {
        sinceChange.push(a.atEpoch - a.occurredAt);
        (by5s[Math.floor((c.start - t0) / 5000)] ??= []).push(a.atEpoch - a.occurredAt);
      }
      if (c.start - t0 < 2000) first.push(l);
      if (lastStart - c.start < 2000) last.push(l);
      lastArrival = Math.max(lastArrival, a.at);
    }
  }
  const got = lat.length;
  const span = (lastArrival - t0) / 1000;
  const d = dist(lat);
  const mean = lat.reduce((s, v) => s + v, 0) / Math.max(1, lat.length);
  const tailMs = lastArrival - lastStart;
  const lost = expected - got;
  const unmatched = calls
    .filter((c) => c.ok)
    .flatMap((c) => c.keys.filter((k) => (r.byKey.get(k)?.length ?? 0) < o.endpoints))
    .slice(0, 20);
  const result: PhaseResult = {
    name: o.name,
    prefix: o.prefix,
    rate: o.rate,
    durationSec: o.durationSec,
    source,
    expected,
    received: got,
    lost,
    unmatched,
    duplicates: r.counters.duplicates - before.duplicates,
    badSignature: r.counters.badSignature - before.badSignature,
    latency: { ...d, mean },
    sinceChange: dist(sinceChange),
    sinceChangeP99By5s: Array.from(by5s, (w) => Math.round(dist(w ?? []).p99)),
    p50FirstSeconds: dist(first).p50,
    p50LastSeconds: dist(last).p50,
    deliveredPerSec: got / span,
    eventsPerSec: complete / span,
    tailMs,
    drainWaitMs,
    settleMs,
    keepsUp: lost === 0 && src.failed === 0 && d.p99 <= KEEP_UP.p99Ms && tailMs <= KEEP_UP.tailMs,
    benchEventLoopP99: loop.percentile(99) / 1e6,
  };
  return { result, calls };
}
