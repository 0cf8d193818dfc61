// The webhook bench's aims check and Markdown report (bench/results/webhooks-latest.md).
import type { Aggregate } from '../lib/load';
import type { Machine } from '../lib/stack';
import type { Breakdown } from './breakdown';
import type { CpuUse } from '../lib/cpu';
import { KEEP_UP, type PhaseResult } from './phase';
import { distRow, f0, f1, ms, pct, phaseRow, row, sep } from './format';
import { platformSection, platformTargets } from './platform-report';
import type { PostPeerResult } from './post-peer';
import type { Receiver } from './receiver';
import type { TemporalPhaseMetrics } from './temporal-metrics';

export type Measured = PhaseResult & { cpu: CpuUse; temporal?: TemporalPhaseMetrics };

export interface WebhookResults {
  startedAt: string;
  wallSeconds: number;
  config: {
    profile: string;
    rate: number;
    durationSec: number;
    /** the platform phase's rate (events/s) and length */
    platformRate: number;
    platformSec: number;
    drainSec: number;
    steps: number[];
    stepsDown: number[];
    stepSec: number;
    receiverDelayMs: number;
    endpoints: number;
    postPeer: { count: number; concurrency: number; maxSec: number };
    temporalPeer: { connections: number; sec: number; warmSec: number; rounds: number };
    historySample: number;
    whatIfWorkerOptions: string | null;
    workers: number;
    phases: string[];
    whatIfTemporalArgs: string | null;
  };
  machine: Machine;
  endpointsVia?: string;
  platformEndpointsVia?: string;
  main?: Measured;
  /** the platform phase: platform ticket changes → two platform endpoints */
  platform?: Measured;
  /** when the platform phase missed its aim: lower rates, highest first, until one met it */
  platformSteps?: Measured[];
  breakdown?: Breakdown;
  /** the same for the highest step that kept up, when the main run did not */
  breakdownSustained?: Breakdown & { rate: number };
  steps?: Measured[];
  postPeer?: PostPeerResult & { cpu: CpuUse };
  temporalPeer?: {
    connections: number;
    normal: Aggregate;
    local: Aggregate;
    cpuNormal: CpuUse[];
    cpuLocal: CpuUse[];
    temporalNormal: Array<TemporalPhaseMetrics | undefined>;
    temporalLocal: Array<TemporalPhaseMetrics | undefined>;
  };
  /** deliveries of every phase counted again at the very end: late is not lost */
  finalLoss?: Record<string, { expected: number; received: number }>;
  receiver?: Receiver['counters'];
  targets?: TargetCheck[];
  errors?: string[];
  loadAvg?: Record<string, number>;
  /** before each measured phase, the wait for the machine to be quiet (< 0.35 core busy, at most 15 s) */
  quietWaitMs?: number[];
}

export interface TargetCheck {
  aim: string;
  measured: string;
  met: boolean;
}


/** The sustained rate: the highest phase (main or step) that kept up. */
export function sustained(r: WebhookResults): Measured | undefined {
  const all = [r.main, ...(r.steps ?? [])].filter((p): p is Measured => !!p && p.keepsUp);
  return all.sort((a, b) => b.rate - a.rate)[0];
}

/** The first phase that did not keep up: its delivered rate is what the pipeline does saturated. */
export function saturated(r: WebhookResults): Measured | undefined {
  return [r.main, ...(r.steps ?? [])].filter((p): p is Measured => !!p && !p.keepsUp).sort((a, b) => a.rate - b.rate)[0];
}

export function checkTargets(r: WebhookResults): TargetCheck[] {
  const out: TargetCheck[] = [];
  const m = r.main;
  if (m) {
    out.push({ aim: `p99 < 500 ms at ${m.rate} events/s (API call start → receiver)`, measured: `p99 ${ms(m.latency.p99)} ms (p50 ${ms(m.latency.p50)}, max ${ms(m.latency.max)})`, met: m.latency.p99 < 500 });
    const finalMain = r.finalLoss?.main;
    const lost = finalMain ? finalMain.expected - finalMain.received : m.lost;
    out.push({
      aim: `zero loss at ${m.rate} events/s`,
      measured: `${m.received} of ${m.expected} deliveries within the ${r.config.drainSec} s drain; ${lost} missing at the end of the run; ${m.duplicates} duplicates; ${m.badSignature} bad signatures; ${m.source.failed} failed API calls`,
      met: lost === 0 && m.source.failed === 0 && m.badSignature === 0,
    });
  }
  if (r.finalLoss && r.steps?.length) {
    const stepLoss = Object.entries(r.finalLoss).filter(([k]) => k.startsWith('step '));
    const missing = stepLoss.reduce((s, [, v]) => s + v.expected - v.received, 0);
    const expected = stepLoss.reduce((s, [, v]) => s + v.expected, 0);
    out.push({ aim: 'zero loss in the steps (also overloaded ones), counted at the end of the run', measured: `${missing} of ${expected} missing`, met: missing === 0 });
  }
  out.push(...platformTargets(r));
  const s = sustained(r);
  const peer = r.temporalPeer?.normal;
  if (peer && (r.main || r.steps)) {
    const dps = s?.deliveredPerSec ?? 0;
    const over = saturated(r);
    out.push({
      aim: 'sustained rate ≥ 50 % of the Temporal peer (one normal activity per workflow)',
      measured:
        `${f0(dps)} deliveries/s (${s ? `${s.rate} events/s, the highest rate that kept up` : 'no rate kept up'}) vs ${f1(peer.rps)} workflows/s: **${pct(dps / peer.rps)}**` +
        (over ? `; saturated at ${over.rate} events/s it still delivered ${f0(over.deliveredPerSec)}/s (${pct(over.deliveredPerSec / peer.rps)})` : ''),
      met: dps >= 0.5 * peer.rps,
    });
    if (s) {
      out.push({
        aim: '(information) events/s vs the peer\'s workflows/s',
        measured: `${f0(s.eventsPerSec)} events/s vs ${f1(peer.rps)} (normal activity) and ${f1(r.temporalPeer!.local.rps)} (local activity): ${pct(s.eventsPerSec / peer.rps)} / ${pct(s.eventsPerSec / r.temporalPeer!.local.rps)}`,
        met: s.eventsPerSec >= 0.5 * peer.rps,
      });
    }
  }
  return out;
}

const CPU_COLUMNS = ['api', 'webhooks worker', 'platform worker', 'Temporal server', 'Postgres', 'Redis', 'bench (source + receiver)', 'Temporal peer worker', 'signed-POST peer'];

function cpuRow(name: string, c: CpuUse | undefined, perUnit?: { n: number; unit: string }): string {
  if (!c) return row([name, ...Array(CPU_COLUMNS.length + 3).fill('–')]);
  const named = CPU_COLUMNS.map((k) => (c.cores[k] ?? 0).toFixed(2));
  const cpuMs = perUnit ? ((c.machineCores - c.otherCores) * c.seconds * 1000) / perUnit.n : NaN;
  return row([name, ...named, c.otherCores.toFixed(2), c.machineCores.toFixed(2), perUnit ? `${f1(cpuMs)} ms/${perUnit.unit}` : '']);
}

export function toMarkdown(r: WebhookResults): string {
  const m = r.machine;
  const c = r.config;
  const L: string[] = [];
  L.push('# Webhook delivery benchmark (`npm run bench:webhooks`)', '');
  L.push(`Run ${r.startedAt}, ${Math.round(r.wallSeconds)} s wall, profile \`${c.profile}\`.`);
  L.push(`Machine: ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB RAM, Node ${m.node}, PostgreSQL ${m.postgres ?? '?'}, ${m.temporalCli ?? 'Temporal CLI'}, ${m.os}.`);
  L.push(
    `Everything (event source and receiver in the bench process, API, \`webhooks\` worker with the dispatcher, Temporal dev server on SQLite, Postgres, Redis, the peers) shares these ${m.nproc} cores. ` +
      `1-min load average at start ${m.loadAvgStart}, at end ${m.loadAvgEnd ?? '?'}; per phase: ${Object.entries(r.loadAvg ?? {}).map(([k, v]) => `${k.split(':')[0]} ${v}`).join(', ')}. ` +
      `Each measured phase starts once the machine is quiet (< 0.35 core busy over 1 s, waited at most 15 s): waits ${(r.quietWaitMs ?? []).map((x) => (x / 1000).toFixed(0)).join(', ')} s.`,
    '',
  );
  L.push(
    `Event source: \`POST /v1/players\` with a new playerId per call (→ \`player.created\`, written into the outbox by the API's own transaction), open loop at a fixed rate. ` +
      `${c.endpoints} endpoints subscribed to it (registered via ${r.endpointsVia ?? '?'}), both on one keep-alive receiver on 127.0.0.1 that answers 200 after ${c.receiverDelayMs} ms. ` +
      `Latency = arrival at the receiver − start of the API call, per delivery. A phase "keeps up" when nothing is lost or failed, p99 ≤ ${KEEP_UP.p99Ms} ms and the last delivery arrives ≤ ${KEEP_UP.tailMs} ms after the last call started.`,
    '',
  );
  L.push(
    c.whatIfWorkerOptions
      ? `**What-if run:** the \`webhooks\` worker was bench/webhooks/whatif-worker.ts, not workers/main.ts, with the extra Worker options \`${c.whatIfWorkerOptions}\`.`
      : `Worker: \`workers/main.ts webhooks\` as shipped (its dispatcher included)${c.workers > 1 ? `, **${c.workers} processes**` : ', one process'}.`,
    '',
  );
  if (c.whatIfTemporalArgs) L.push(`**What-if run:** the Temporal dev server ran with the extra arguments \`${c.whatIfTemporalArgs}\`.`, '');
  if (r.errors?.length) L.push('**Errors during the run:**', '', ...r.errors.map((e) => `- ${e.split('\n')[0]}`), '');
  if (r.targets?.length) {
    L.push('## Aims', '', row(['aim', 'measured', 'met']), row(['---', '---', '---']));
    for (const t of r.targets) L.push(row([t.aim, t.measured, t.met ? 'yes' : '**no**']));
    L.push('');
  }
  const phases = [r.main, ...(r.steps ?? [])].filter((p): p is Measured => !!p);
  if (phases.length) {
    L.push('## Delivery: main run and steps', '');
    L.push(row(['events/s × time', 'calls/s sent', 'deliveries received / expected', 'lost (after drain)', 'delivered/s', 'events delivered/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'p50 first → last 2 s', 'tail ms', 'API p50 / p99 ms', 'keeps up']));
    L.push(sep(14));
    for (const p of phases) L.push(phaseRow(p));
    L.push('');
    if (r.main) {
      const x = r.main;
      L.push(
        `Main run: ${x.source.ok} API calls OK, ${x.source.failed} failed (${JSON.stringify(x.source.statusCodes)}); ${x.duplicates} duplicate deliveries, ${x.badSignature} bad signatures; ` +
          `generator lateness p99 ${ms(x.source.lateness.p99)} ms (max ${ms(x.source.lateness.max)}); bench event-loop delay p99 ${ms(x.benchEventLoopP99)} ms.`,
        '',
      );
    }
    if (r.finalLoss) {
      L.push(`Counted again at the end of the run (late is not lost): ${Object.entries(r.finalLoss).map(([k, v]) => `${k} ${v.received}/${v.expected}`).join(', ')}.`, '');
    }
  }
  if (r.platform) L.push(...platformSection(r, r.platform, sustained(r)));
  if (r.postPeer || r.temporalPeer) {
    L.push('## Peers (same run, same machine)', '');
    L.push(row(['peer', 'rate', 'p50 ms', 'p95 ms', 'p99 ms', 'failures', 'notes']));
    L.push(sep(7));
    const p = r.postPeer;
    if (p) {
      L.push(row(['bare signed POST (`deliveryHeaders` + `postOnce`, safe keep-alive agent) → same receiver', `${f0(p.rps)} requests/s`, ms(p.p50), ms(p.p95), ms(p.p99), p.failed, `${p.requests} requests, ${p.concurrency} concurrent, ${p.bodyBytes}-byte envelope; latency = request round trip incl. the 5 ms answer`]));
    }
    const tp = r.temporalPeer;
    if (tp) {
      for (const [name, a] of [
        ['workflow + one normal activity (the issue\'s peer)', tp.normal],
        ['workflow + one local activity (the shape of our deliveries)', tp.local],
      ] as const) {
        L.push(row([name, `${f1(a.rps)} workflows/s`, ms(a.p50), ms(a.p95), ms(a.p99), a.failures, `${tp.connections} concurrent start + wait for result; runs: ${a.runs.map((x) => f1(x.rps)).join(', ')} workflows/s (median shown)`]));
      }
    }
    L.push('');
  }
  const breakdowns: Array<[string, Breakdown]> = [];
  if (r.breakdown) breakdowns.push([`main run, ${r.main?.rate ?? '?'} events/s`, r.breakdown]);
  if (r.breakdownSustained) breakdowns.push([`step ${r.breakdownSustained.rate} events/s (the highest rate that kept up)`, r.breakdownSustained]);
  for (const [label, b] of breakdowns) {
    L.push(`## Where the latency goes: ${label} (${b.deliveries} deliveries; Temporal history of ${b.sampledWorkflows} sampled batch workflows)`, '');
    L.push('Milestones, ms after the API call started:', '');
    L.push(row(['milestone', 'n', 'p50', 'p95', 'p99', 'max']), sep(6));
    for (const [k, d] of Object.entries(b.milestones)) L.push(distRow(k, d));
    L.push('', 'Stages, per delivery (ms):', '');
    L.push(row(['stage', 'n', 'p50', 'p95', 'p99', 'max']), sep(6));
    for (const [k, d] of Object.entries(b.stages)) L.push(distRow(k, d));
    L.push(
      '',
      `Dispatch batches (one claim, one \`webhook-batch\` workflow): ${b.claimBatch.batches}, events per batch p50 ${f0(b.claimBatch.p50)}, p99 ${f0(b.claimBatch.p99)}, max ${f0(b.claimBatch.max)}. ` +
        `Workflow tasks per batch workflow (sample): p50 ${f0(b.workflowTasks.p50)}, max ${f0(b.workflowTasks.max)}. Delivery rows by status: ${JSON.stringify(b.statuses)}.`,
      '',
    );
  }
  const tms: Array<[string, TemporalPhaseMetrics | undefined]> = [
    ...phases.map((p): [string, TemporalPhaseMetrics | undefined] => [`${p.rate} events/s (queue \`webhooks\`)`, p.temporal]),
    ...(r.temporalPeer?.temporalNormal ?? []).map((x, i): [string, TemporalPhaseMetrics | undefined] => [`Temporal peer, normal activity (round ${i + 1})`, x]),
    ...(r.temporalPeer?.temporalLocal ?? []).map((x, i): [string, TemporalPhaseMetrics | undefined] => [`Temporal peer, local activity (round ${i + 1})`, x]),
  ].filter(([, x]) => !!x);
  if (tms.length) {
    L.push('## Temporal server during each phase (its own metrics)', '');
    L.push(
      'How the workflow tasks of the phase met a poller: **sync match** (a poller was already waiting; handed over in memory) or **async match** (no poller waiting: written to the task-queue backlog in SQLite and read back); "wait" is the server\'s mean sync/async match latency. Then the persistence operations that took the most time.',
      '',
    );
    L.push(row(['phase', 'workflow tasks sync / async', 'sync share', 'mean wait sync / async ms', 'backlog writes (CreateTasks)', 'top persistence operations: count × mean ms']), sep(6));
    for (const [name, x] of tms) {
      const w = x!.workflowTasks;
      const top = x!.persistence.slice(0, 4).map((p) => `${p.operation} ${p.count} × ${f1(p.meanMs)}`).join('; ');
      L.push(row([name, `${w.syncMatch} / ${w.asyncMatch}`, pct(w.syncShare), `${f1(w.syncMatchMeanMs)} / ${f0(w.asyncMatchMeanMs)}`, w.backlogWrites, top]));
    }
    L.push('');
  }
  if (phases.length || r.platform || r.postPeer || r.temporalPeer) {
    L.push('## CPU by component (cores, average over the phase)', '');
    L.push(row(['phase', ...CPU_COLUMNS, 'rest of machine', 'machine', 'CPU per unit (ours)']), sep(CPU_COLUMNS.length + 4));
    for (const p of phases) L.push(cpuRow(`${p.rate} events/s`, p.cpu, { n: p.received, unit: 'delivery' }));
    if (r.platform) L.push(cpuRow(`platform, ${r.platform.rate} events/s`, r.platform.cpu, { n: r.platform.received, unit: 'delivery' }));
    for (const p of r.platformSteps ?? []) L.push(cpuRow(`platform, ${p.rate} events/s`, p.cpu, { n: p.received, unit: 'delivery' }));
    if (r.postPeer) L.push(cpuRow('signed-POST peer', r.postPeer.cpu, { n: r.postPeer.requests, unit: 'request' }));
    r.temporalPeer?.cpuNormal.forEach((x, i) => L.push(cpuRow(`Temporal peer, normal activity (round ${i + 1})`, x, { n: Math.round(r.temporalPeer!.normal.runs[i].rps * x.seconds), unit: 'workflow' })));
    r.temporalPeer?.cpuLocal.forEach((x, i) => L.push(cpuRow(`Temporal peer, local activity (round ${i + 1})`, x, { n: Math.round(r.temporalPeer!.local.runs[i].rps * x.seconds), unit: 'workflow' })));
    L.push('', '"Postgres" and "Redis" are all their processes (other databases\' sessions included); "rest of machine" is busy time no listed process explains (other work on the machine). "CPU per unit" is the machine\'s busy time minus that rest, per delivery / request / workflow.', '');
  }
  return L.join('\n');
}

