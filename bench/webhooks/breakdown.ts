// Where a delivery's latency goes, measured rather than guessed. Every step of the path
// leaves a timestamp on the same machine clock:
//   API call start / response        the bench (event source)
//   events.claimed_at                the dispatcher's claim transaction (now() at its start)
//   events.dispatched_at             after the claim's batch workflow start returned
//   WorkflowExecutionStarted         Temporal history of the batch workflow
//                                    (`webhook-batch/<events.batch_id>`): the server accepted the start
//   first WorkflowTaskStarted        Temporal history: the worker picked the workflow up
//   webhook_attempts.started_at      the attempt activity is about to send the POST
//   arrival                          the receiver (the bench)
// The database timestamps cover every delivery; the Temporal history is read for a
// bounded sample of the batch workflows (every delivery of a sampled batch counts).
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { Pool } from 'pg';
import { webhookBatchWorkflowId } from '../../workflows/webhook-delivery/contract';
import { percentile } from '../lib/load';
import type { Receiver } from './receiver';
import type { Call } from './source';

export interface Dist {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function dist(values: number[]): Dist {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN };
}

export interface Breakdown {
  deliveries: number;
  sampledWorkflows: number;
  /** milestones, ms after the API call started (each its own distribution) */
  milestones: Record<string, Dist>;
  /** stage durations, per delivery (or per sampled workflow) */
  stages: Record<string, Dist>;
  /** events per dispatch batch (one claim, one batch workflow) */
  claimBatch: Dist & { batches: number };
  /** workflow tasks per batch workflow (sample) */
  workflowTasks: Dist;
  /** delivery rows by status once the run drained */
  statuses: Record<string, number>;
}

interface Row {
  event_id: string;
  batch_id: string | null;
  player_id: string;
  claimed: number | null;
  dispatched: number | null;
  delivery_id: string;
  status: string;
  post_start: number | null;
  latency_ms: number | null;
}

interface HistoryTimes {
  started: number;
  wftScheduled: number;
  wftStarted: number;
  wftCompleted: number;
  completed: number;
  workflowTasks: number;
}

async function historyTimes(client: Client, batchId: string): Promise<HistoryTimes | undefined> {
  const h = await client.workflow.getHandle(webhookBatchWorkflowId(batchId)).fetchHistory();
  const t: Partial<HistoryTimes> = { workflowTasks: 0 };
  for (const e of h.events ?? []) {
    const at = tsToMs(e.eventTime);
    if (e.workflowExecutionStartedEventAttributes) t.started = at;
    else if (e.workflowTaskScheduledEventAttributes) t.wftScheduled ??= at;
    else if (e.workflowTaskStartedEventAttributes) {
      t.wftStarted ??= at;
      t.workflowTasks!++;
    } else if (e.workflowTaskCompletedEventAttributes) t.wftCompleted ??= at;
    else if (e.workflowExecutionCompletedEventAttributes) t.completed = at;
  }
  return t.started === undefined ? undefined : (t as HistoryTimes);
}

export async function breakdown(
  pool: Pool,
  client: Client,
  prefix: string,
  calls: Call[],
  receiver: Receiver,
  sampleSize: number,
): Promise<Breakdown> {
  const epoch = (perf: number) => performance.timeOrigin + perf;
  const callOf = new Map(calls.map((c) => [c.id, c]));
  const { rows } = await pool.query<Row>(
    `SELECT e.id AS event_id, e.batch_id, e.data->>'playerId' AS player_id,
            (extract(epoch FROM e.claimed_at) * 1000)::float8 AS claimed,
            (extract(epoch FROM e.dispatched_at) * 1000)::float8 AS dispatched,
            d.id AS delivery_id, d.status,
            (extract(epoch FROM a.started_at) * 1000)::float8 AS post_start, a.latency_ms
       FROM events e
       JOIN webhook_deliveries d ON d.event_id = e.id
       LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE e.type = 'player.created' AND e.data->>'playerId' LIKE $1`,
    [`${prefix}-%`],
  );
  const statuses: Record<string, number> = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;

  // the history of a sample of the batch workflows, spread over the run
  const batchIds = [...new Set(rows.map((r) => r.batch_id).filter((b): b is string => !!b))].sort();
  const step = Math.max(1, Math.floor(batchIds.length / sampleSize));
  const sample = batchIds.filter((_, i) => i % step === 0).slice(0, sampleSize);
  const hist = new Map<string, HistoryTimes>();
  for (let i = 0; i < sample.length; i += 16) {
    const part = sample.slice(i, i + 16);
    const got = await Promise.all(part.map((id) => historyTimes(client, id).catch(() => undefined)));
    part.forEach((id, j) => got[j] && hist.set(id, got[j]!));
  }

  const m: Record<string, number[]> = { 'API response': [], 'claimed by the dispatcher': [], 'workflow started (sample)': [], 'picked up by the worker (sample)': [], 'POST sent': [], 'arrived at the receiver': [] };
  const s: Record<string, number[]> = {
    'API call (start → response)': [],
    'call start → claimed (commit, NOTIFY, claim)': [],
    'claimed → workflow started (sample)': [],
    'claimed → dispatched (batch workflow start + mark)': [],
    'workflow started → worker picked it up (sample)': [],
    'first workflow task scheduled → started (sample)': [],
    'picked up → POST sent (workflow task, local activity, select + decrypt + sign) (sample)': [],
    'POST sent → arrived (on the wire)': [],
    'attempt duration recorded by the worker (POST + 5 ms answer)': [],
  };
  for (const r of rows) {
    const call = callOf.get(r.player_id);
    if (!call) continue;
    const t0 = epoch(call.start);
    const arrival = receiver.deliveries.get(r.delivery_id);
    const arr = arrival ? epoch(arrival.at) : NaN;
    const h = r.batch_id ? hist.get(r.batch_id) : undefined;
    const claimed = r.claimed ?? NaN;
    const post = r.post_start ?? NaN;
    if (call.end !== undefined) {
      m['API response'].push(epoch(call.end) - t0);
      s['API call (start → response)'].push(call.end - call.start);
    }
    m['claimed by the dispatcher'].push(claimed - t0);
    m['POST sent'].push(post - t0);
    m['arrived at the receiver'].push(arr - t0);
    s['call start → claimed (commit, NOTIFY, claim)'].push(claimed - t0);
    s['claimed → dispatched (batch workflow start + mark)'].push((r.dispatched ?? NaN) - claimed);
    s['POST sent → arrived (on the wire)'].push(arr - post);
    if (r.latency_ms !== null) s['attempt duration recorded by the worker (POST + 5 ms answer)'].push(r.latency_ms);
    if (h) {
      m['workflow started (sample)'].push(h.started - t0);
      m['picked up by the worker (sample)'].push(h.wftStarted - t0);
      s['claimed → workflow started (sample)'].push(h.started - claimed);
      s['workflow started → worker picked it up (sample)'].push(h.wftStarted - h.started);
      s['first workflow task scheduled → started (sample)'].push(h.wftStarted - h.wftScheduled);
      s['picked up → POST sent (workflow task, local activity, select + decrypt + sign) (sample)'].push(post - h.wftStarted);
    }
  }
  // events per dispatch batch
  const perBatch = new Map<string, Set<string>>();
  for (const r of rows) if (r.batch_id) (perBatch.get(r.batch_id) ?? perBatch.set(r.batch_id, new Set()).get(r.batch_id)!).add(r.event_id);
  const batchSizes = [...perBatch.values()].map((x) => x.size);
  return {
    deliveries: rows.length,
    sampledWorkflows: hist.size,
    milestones: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, dist(v)])),
    stages: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, dist(v)])),
    claimBatch: { ...dist(batchSizes), batches: batchSizes.length },
    workflowTasks: dist([...hist.values()].map((h) => h.workflowTasks)),
    statuses,
  };
}
