// What the Temporal dev server itself reports about a phase (its Prometheus endpoint,
// --metrics-port): how each workflow task found a poller — sync match (a poller was
// waiting: handed over in memory) or async match (no poller waiting: the task was written
// to the task-queue backlog in SQLite and read back later) — and how often and how long
// each persistence operation ran. The counters are read before and after the phase and
// subtracted.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return out;
}

const key = (s: Sample) => `${s.name}{${Object.entries(s.labels).map(([k, v]) => `${k}=${v}`).join(',')}}`;

function delta(a: Sample[], b: Sample[]): Sample[] {
  const before = new Map(a.map((s) => [key(s), s.value]));
  return b.map((s) => ({ ...s, value: s.value - (before.get(key(s)) ?? 0) }));
}

const sum = (xs: Sample[]) => xs.reduce((t, s) => t + s.value, 0);

export interface TemporalPhaseMetrics {
  /** workflow tasks of the task queue, by how they met a poller */
  workflowTasks: { syncMatch: number; asyncMatch: number; syncShare: number; asyncMatchMeanMs: number; syncMatchMeanMs: number; backlogWrites: number };
  /** persistence operations of the default namespace: count and mean latency */
  persistence: Array<{ service: string; operation: string; count: number; meanMs: number; totalSec: number }>;
}

export function summarize(a: Sample[], b: Sample[], taskQueue: string): TemporalPhaseMetrics {
  const d = delta(a, b);
  const tq = taskQueue.replace(/[^\w]/g, '_');
  const wf = (name: string) => d.filter((s) => s.name === name && s.labels.taskqueue === tq && s.labels.task_type === 'Workflow');
  const syncMatch = sum(wf('syncmatch_latency_count'));
  const asyncMatch = sum(wf('asyncmatch_latency_count'));
  const persistence: TemporalPhaseMetrics['persistence'] = [];
  for (const c of d.filter((s) => s.name === 'persistence_latency_count' && s.labels.namespace === 'default' && s.value > 0)) {
    const total = d.find((s) => s.name === 'persistence_latency_sum' && s.labels.operation === c.labels.operation && s.labels.service_name === c.labels.service_name && s.labels.namespace === 'default');
    persistence.push({ service: c.labels.service_name, operation: c.labels.operation, count: c.value, meanMs: ((total?.value ?? NaN) / c.value) * 1000, totalSec: total?.value ?? NaN });
  }
  persistence.sort((x, y) => y.totalSec - x.totalSec);
  const backlog = d.find((s) => s.name === 'persistence_latency_count' && s.labels.operation === 'CreateTasks' && s.labels.namespace === 'default');
  return {
    workflowTasks: {
      syncMatch,
      asyncMatch,
      syncShare: syncMatch / Math.max(1, syncMatch + asyncMatch),
      syncMatchMeanMs: (sum(wf('syncmatch_latency_sum')) / Math.max(1, syncMatch)) * 1000,
      asyncMatchMeanMs: (sum(wf('asyncmatch_latency_sum')) / Math.max(1, asyncMatch)) * 1000,
      backlogWrites: backlog?.value ?? 0,
    },
    persistence,
  };
}
