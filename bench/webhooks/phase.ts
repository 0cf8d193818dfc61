// One load phase of the webhook bench: events at a fixed open-loop rate, then a bounded
// wait for their deliveries, then what arrived, how fast and how late.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { sleep } from '../lib/procs';
import { dist, type Dist } from './breakdown';
import type { Receiver } from './receiver';
import { runSource, type Call, type SourceResult } from './source';

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
  /** repeated webhook-ids and bad signatures seen at the receiver during the phase */
  duplicates: number;
  badSignature: number;
  /** API call start → arrival at the receiver, every delivery */
  latency: Dist & { mean: number };
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

function received(calls: Call[], r: Receiver): number {
  let n = 0;
  for (const c of calls) if (c.status === 200) n += r.byPlayer.get(c.playerId)?.length ?? 0;
  return n;
}

export async function runPhase(o: PhaseOptions, r: Receiver): Promise<{ result: PhaseResult; calls: Call[] }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const before = { ...r.counters };
  const count = Math.round(o.rate * o.durationSec);
  const src = await runSource({ api: o.api, token: o.token, workspaceId: o.workspaceId, prefix: o.prefix, rate: o.rate, count });
  const { calls, ...source } = src;
  const expected = src.ok * o.endpoints;
  const lastStart = calls[calls.length - 1].start;
  const drainUntil = performance.now() + o.drainSec * 1000;
  while (received(calls, r) < expected && performance.now() < drainUntil) await sleep(50);
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
  const first: number[] = [];
  const last: number[] = [];
  let lastArrival = -Infinity;
  let complete = 0;
  const t0 = calls[0].start;
  for (const c of calls) {
    if (c.status !== 200) continue;
    const arrivals = r.byPlayer.get(c.playerId) ?? [];
    if (arrivals.length >= o.endpoints) complete++;
    for (const a of arrivals) {
      const l = a.at - c.start;
      lat.push(l);
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
  const result: PhaseResult = {
    name: o.name,
    prefix: o.prefix,
    rate: o.rate,
    durationSec: o.durationSec,
    source,
    expected,
    received: got,
    lost,
    duplicates: r.counters.duplicates - before.duplicates,
    badSignature: r.counters.badSignature - before.badSignature,
    latency: { ...d, mean },
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
