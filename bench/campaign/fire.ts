// The event-trigger phase of `npm run bench:campaign`: one enabled delay-0 trigger, then
// POST /api/v1/event-triggers/fire with the app's API key at a fixed rate (an open loop:
// the fires leave on schedule whether or not earlier ones were answered, as devices in
// the field fire) for a bounded time, each fire for another device and with its own
// `seq` property, which the trigger's body renders; the sink's record of each push
// carries that body, so each push is matched to the fire that caused it.
//   fire throughput: 202s per second over the phase; the 202's latency;
//   fire → push at the sink: from the fire request leaving to the sink's receivedAt.
// Then, for information, the most fires a second the API answers (a closed loop of
// `connections` connections for a few seconds; their sends are not followed).
import { percentile, runHttp, type RunStats } from '../lib/load';
import { sleep } from '../lib/procs';
import { sinkReader, type Tenant } from '../push/phases';
import { json, logIn } from './phases';

export const FIRE_EVENT = 'bench_fire';

/** A delay-0 trigger on FIRE_EVENT whose body carries the fire's `seq`; answers its id. */
export async function createFireTrigger(t: Tenant, tag: string): Promise<string> {
  await logIn(t);
  const trigger = await json(
    `${t.api}/api/v1/event-triggers`,
    'POST',
    {
      appId: t.appId,
      name: `bench ${tag}`,
      eventName: FIRE_EVENT,
      delayMinutes: 0,
      conditions: [{ field: 'properties.level', operator: 'greater_than', value: 0 }],
      title: 'Bench fire',
      body: `fire {{properties.seq}}`,
    },
    `Bearer ${t.token}`,
  );
  return trigger.id;
}

export interface FirePhase {
  /** the rate asked for, for how long, and how long the pushes were waited for */
  rate: number;
  seconds: number;
  drainSec: number;
  fires: number;
  /** fires answered 202 */
  accepted: number;
  failed: number;
  /** first failures by status or message */
  failures: Record<string, number>;
  /** triggers matched per accepted fire (1 expected) */
  triggersMatched: Record<string, number>;
  /** 202s per second, from the first fire leaving to the last answer */
  firesPerSec: number;
  api: { p50: number; p99: number; max: number };
  /** pushes of the accepted fires found at the sink within the drain time */
  reached: number;
  /** over the pushes that arrived; `p99` over every accepted fire, a missing push counted as later than any: null when over 1 % are missing */
  fireToSink: { p50: number; p99: number | null; p99Arrived: number; max: number };
}

/**
 * `rate` fires a second for `seconds` over `deviceIds` (one device per fire, round robin),
 * then waits (at most `drainSec`) for each accepted fire's push at the sink.
 */
export async function firePhase(t: Tenant, o: { deviceIds: string[]; rate: number; seconds: number; sinkDir: string; drainSec: number; tag: string }): Promise<FirePhase> {
  const newSinkLines = sinkReader(o.sinkDir);
  const total = Math.round(o.rate * o.seconds);
  const sentAt = new Map<string, number>();
  const apiMs: number[] = [];
  const failures: Record<string, number> = {};
  const matched: Record<string, number> = {};
  let accepted = 0;
  let lastAnswer = 0;
  const fire = async (i: number) => {
    const seq = `${o.tag}-${i}`;
    const started = Date.now();
    try {
      const res = await fetch(`${t.api}/api/v1/event-triggers/fire`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `ApiKey ${t.apiKey}` },
        body: JSON.stringify({ deviceId: o.deviceIds[i % o.deviceIds.length], eventName: FIRE_EVENT, properties: { seq, level: 1 + (i % 50) } }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      lastAnswer = Date.now();
      if (res.status === 202) {
        accepted++;
        apiMs.push(lastAnswer - started);
        sentAt.set(seq, started);
        const n = String((JSON.parse(text) as { triggersMatched?: number }).triggersMatched);
        matched[n] = (matched[n] ?? 0) + 1;
      } else {
        failures[String(res.status)] = (failures[String(res.status)] ?? 0) + 1;
      }
    } catch (err) {
      const k = String((err as Error).message).slice(0, 60);
      failures[k] = (failures[k] ?? 0) + 1;
    }
  };
  // the open loop: every 5 ms, the fires that are due by now leave (none waits for another)
  const inFlight: Promise<void>[] = [];
  const t0 = Date.now();
  for (let next = 0; next < total; ) {
    const due = Math.min(total, Math.floor(((Date.now() - t0) / 1000) * o.rate) + 1);
    for (; next < due; next++) inFlight.push(fire(next));
    await sleep(5);
  }
  await Promise.all(inFlight);
  const firesPerSec = accepted / ((lastAnswer - t0) / 1000);
  const latencies: number[] = [];
  const until = Date.now() + o.drainSec * 1000;
  const pattern = new RegExp(`^fire (${o.tag}-\\d+)$`);
  while (Date.now() < until) {
    for (const r of newSinkLines()) {
      const m = r.body ? pattern.exec(r.body) : null;
      const at = m ? sentAt.get(m[1]) : undefined;
      if (at === undefined) continue;
      latencies.push(Date.parse(r.receivedAt) - at);
      sentAt.delete(m![1]); // a repeat is not a second arrival
    }
    if (!sentAt.size) break;
    await sleep(250);
  }
  const sorted = latencies.sort((a, b) => a - b);
  const api = apiMs.sort((a, b) => a - b);
  return {
    rate: o.rate,
    seconds: o.seconds,
    drainSec: o.drainSec,
    fires: total,
    accepted,
    failed: total - accepted,
    failures,
    triggersMatched: matched,
    firesPerSec,
    api: { p50: percentile(api, 50), p99: percentile(api, 99), max: api[api.length - 1] ?? NaN },
    reached: latencies.length,
    fireToSink: {
      p50: percentile(sorted, 50),
      p99: accepted && sorted.length >= Math.ceil(0.99 * accepted) ? percentile([...sorted, ...new Array<number>(accepted - sorted.length).fill(Infinity)], 99) : null,
      p99Arrived: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
    },
  };
}

/** The most fires a second the API answers: `connections` connections for `sec` seconds. */
export function fireCapacity(t: Tenant, o: { deviceIds: string[]; connections: number; sec: number; tag: string }): Promise<RunStats> {
  return runHttp({
    url: t.api,
    method: 'POST',
    connections: o.connections,
    durationSec: o.sec,
    headers: { authorization: `ApiKey ${t.apiKey}` },
    next: (i) => ({
      path: '/api/v1/event-triggers/fire',
      body: JSON.stringify({ deviceId: o.deviceIds[i % o.deviceIds.length], eventName: FIRE_EVENT, properties: { seq: `${o.tag}-${i}`, level: 1 } }),
    }),
  });
}
