// `npm run bench:push`: the push service measured (docs/benchmarks.md, "Push"). Starts its
// own Temporal dev server, database, API, `push` worker, local push sink and the bare
// register peer (bench/push/stack.ts); then, in one run:
//   1. devices registered per second: POST /api/v1/devices/register with an ApiKey, next
//      to the bare Koa + pg upsert peer (aim: ≥ 50 % of the peer);
//   2. the sink's raw capacity: FCM pushes/s from a bare HTTP/2 client (bench/push/sink-capacity.ts);
//   3. direct sends: 1,000 devices × 20 calls through the API, the workflow and the
//      worker: pushes/s reaching the sink (aim: ≥ 50 % of the raw capacity) and the p99
//      from the API call to each call's last device.
// Writes bench/results/push-latest.{json,md}; tears everything down, also on error,
// Ctrl-C and a watchdog. Bounded in requests and time; 127.0.0.1 only.
//
// Knobs: BENCH_PUSH_CALLS (20), BENCH_PUSH_DEVICES (1000), BENCH_PUSH_REGISTER_SEC (5 per half-round),
// BENCH_PUSH_ROUNDS (3 alternating pairs; the ratio is their median),
// BENCH_PUSH_CONNECTIONS (32), BENCH_PUSH_RAW_SEC (5), BENCH_PUSH_WORKERS (1 push worker process), BENCH_PROFILE=quick (a smoke run:
// 2 calls, 3 s of registration, 2 s of raw capacity); BENCH_PUSH_PHASES=register|send
// (one phase only), BENCH_PUSH_PROFILE_DIR=<dir> (CPU profiles of the API, worker, sink, peer).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { RunStats } from '../lib/load';
import { runGuarded } from '../lib/run-guard';
import { stopAll, type Child } from '../lib/procs';
import { resultsWriter } from '../lib/results';
import { assertPortsFree, loadEnvFile, logDirFor, machineInfo, prepareDatabase, removeDir, ROOT, stackUrls, startTemporal, waitForTemporal, type Machine } from '../lib/stack';
import { insertDevices, registerLoad, sendPhase, setUpTenant, type SendPhase } from './phases';
import { pushCpuGroups } from './cpu';
import { alternate, rps, type CpuMs } from './rounds';
import { measureSinkCapacity, type SinkCapacity } from '../../scripts/push-sink/capacity';
import { measureLibraryCapacity, type LibraryCapacity } from './library-capacity';
import { PUSH_PORTS, PUSH_STACK, startApps, waitForApps } from './stack';

const RESULTS = join(ROOT, 'bench', 'results');
const WATCHDOG_MS = 10 * 60_000;
const t0 = Date.now();
const log = (line: string) => console.log(`[bench:push ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s] ${line}`);
const int = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Math.floor(Number(v)) : d);
const quick = process.env.BENCH_PROFILE === 'quick';
const CONFIG = {
  profile: quick ? 'quick' : 'full',
  calls: int(process.env.BENCH_PUSH_CALLS, quick ? 2 : 20),
  devices: Math.min(1000, int(process.env.BENCH_PUSH_DEVICES, 1000)),
  registerSec: int(process.env.BENCH_PUSH_REGISTER_SEC, quick ? 3 : 5),
  /** alternating (app, peer) pairs per measure; the ratio is their median */
  rounds: int(process.env.BENCH_PUSH_ROUNDS, quick ? 1 : 3),
  connections: int(process.env.BENCH_PUSH_CONNECTIONS, 32),
  rawSec: int(process.env.BENCH_PUSH_RAW_SEC, quick ? 2 : 5),
  rawConcurrency: 64,
  /** BENCH_PUSH_WORKERS: push worker processes (more fan-out on a machine with more cores) */
  workers: int(process.env.BENCH_PUSH_WORKERS, 1),
  drainSec: 120,
  /** BENCH_PUSH_PROFILE_DIR: the API, worker, sink and peer write V8 CPU profiles there */
  profileDir: process.env.BENCH_PUSH_PROFILE_DIR || undefined,
  /** BENCH_PUSH_PHASES: which measured phases run (profiling one of them); default both */
  phases: (process.env.BENCH_PUSH_PHASES ?? 'register,send').split(',').map((x) => x.trim()),
};

/** one round's rates: the app's, its peer's (or the sink's raw capacity), and their ratio */
interface RoundFigures {
  app: number;
  peer: number;
  ratio: number;
  /** sends: pushes that reached the sink, of how many */
  received?: number;
  pushes?: number;
}

interface PushResults {
  startedAt: string;
  wallSeconds: number;
  config: typeof CONFIG;
  machine: Machine;
  errors: string[];
  /** the median round's figures; `ratio` the median of the rounds' ratios */
  register?: { app: RunStats; peer: RunStats; ratio: number; rounds: RoundFigures[]; cpuMsPerRequest: { app: CpuMs; peer: CpuMs } };
  sink?: SinkCapacity & { cpuMsPerPush?: CpuMs };
  send?: SendPhase & { ratioToSink?: number; rounds?: RoundFigures[]; cpuMsPerPush?: CpuMs };
  /** firebase-admin alone against the sink (the median of `rounds` runs), for information */
  library?: LibraryCapacity & { runs: number[] };
  targets?: Record<string, { aim: string; value: number | null; met: boolean | null }>;
}

function checkTargets(r: PushResults): PushResults['targets'] {
  const ratioToSink = r.send?.ratioToSink ?? (r.send && r.sink ? r.send.pushesPerSec / r.sink.perSecond : null);
  return {
    registerVsPeer: { aim: '≥ 0.5', value: r.register?.ratio ?? null, met: r.register ? r.register.ratio >= 0.5 : null },
    sendVsSink: { aim: '≥ 0.5', value: ratioToSink, met: ratioToSink === null ? null : ratioToSink >= 0.5 },
    everyPushArrived: {
      aim: 'all, every round',
      value: r.send ? (r.send.rounds ?? [r.send]).reduce((n, x) => n + (x.received ?? 0), 0) : null,
      met: r.send ? (r.send.rounds ?? [r.send]).every((x) => x.received === x.pushes) : null,
    },
  };
}

const f = (x: number | undefined | null, d = 0) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x.toFixed(d));

function toMarkdown(r: PushResults): string {
  const m = r.machine;
  const lines = [
    `# bench:push (${r.config.profile}) ${r.startedAt}`,
    '',
    `Machine: ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, PostgreSQL ${m.postgres ?? '?'}; 1-min load ${m.loadAvgStart} → ${m.loadAvgEnd ?? '?'}; wall ${f(r.wallSeconds)} s`,
    '',
    '| measure | app | peer / capacity | ratio | aim |',
    '|---|---|---|---|---|',
  ];
  if (r.register) {
    const { app, peer, ratio } = r.register;
    lines.push(`| devices registered/s (POST /devices/register, ApiKey; ${r.config.connections} connections) | ${f(app.rps)} (p99 ${f(app.p99)} ms) | ${f(peer.rps)} (bare Koa + pg upsert, p99 ${f(peer.p99)} ms) | ${f(ratio, 2)} | ≥ 0.5 |`);
  }
  if (r.send) {
    const s = r.send;
    lines.push(`| pushes/s reaching the sink (${s.calls} calls × ${s.devicesPerCall} devices; ${r.config.workers} push worker process${r.config.workers > 1 ? 'es' : ''}) | ${f(s.pushesPerSec)} | ${f(r.sink?.perSecond)} (sink raw capacity: bare HTTP/2 FCM client, ${r.config.rawConcurrency} in flight) | ${f(s.ratioToSink, 2)} | ≥ 0.5 |`);
    if (r.library) {
      lines.push(`| (information) pushes/s through firebase-admin alone: the worker's FCM transport from the bench process, no API/Temporal/DB | ${f(s.pushesPerSec)} | ${f(r.library.perSecond)} (median of ${f(r.library.runs.length)} runs: ${r.library.runs.map((x) => f(x)).join(', ')}) | ${f(s.pushesPerSec / r.library.perSecond, 2)} | — |`);
    }
    lines.push(
      '',
      `Sends: ${s.received}/${s.pushes} pushes at the sink; API call → last device of the call: p50 ${f(s.callToLast.p50)} ms, p99 ${f(s.callToLast.p99)} ms, max ${f(s.callToLast.max)} ms; ` +
        `API call → each push: p50 ${f(s.perPush.p50)} ms, p99 ${f(s.perPush.p99)} ms; the 202 itself: p50 ${f(s.api.p50)} ms, p99 ${f(s.api.p99)} ms.`,
    );
  }
  const rounds = (what: string, xs: RoundFigures[] | undefined) =>
    xs && lines.push(`- ${what}: ${xs.map((x) => `${f(x.app)} / ${f(x.peer)} = ${f(x.ratio, 2)}`).join('; ')}`);
  if (r.register?.rounds || r.send?.rounds) lines.push('', `Rounds, in order (app / peer = ratio; the table shows the median round):`);
  rounds('register', r.register?.rounds);
  rounds('send vs raw capacity', r.send?.rounds);
  const cpuLine = (what: string, ms: CpuMs | undefined) =>
    ms && lines.push(`- ${what}: ${Object.entries(ms).map(([g, v]) => `${g} ${v.toFixed(3)}`).join(', ')}`);
  if (r.register?.cpuMsPerRequest || r.send?.cpuMsPerPush) lines.push('', 'CPU ms per request / push over all rounds (from /proc; steadier than rates on a shared machine):');
  cpuLine('register, app', r.register?.cpuMsPerRequest?.app);
  cpuLine('register, peer', r.register?.cpuMsPerRequest?.peer);
  cpuLine('sink raw capacity', r.sink?.cpuMsPerPush);
  cpuLine('send', r.send?.cpuMsPerPush);
  if (r.errors.length) lines.push('', '**Errors:**', ...r.errors.map((e) => `- ${e.split('\n')[0]}`));
  return lines.join('\n');
}

let temporalDir: string | undefined;
let sinkDir: string | undefined;
let tearingDown: Promise<void> | null = null;
const teardown = () =>
  (tearingDown ??= stopAll(5000, (c: Child) => (c.name === 'push-temporal' ? 1 : 0)).then(() => {
    removeDir(temporalDir);
    removeDir(sinkDir);
  }));

async function main(): Promise<number> {
  loadEnvFile();
  mkdirSync(RESULTS, { recursive: true });
  const logDir = logDirFor(RESULTS);
  const machine = machineInfo();
  const results: PushResults = { startedAt: new Date(t0).toISOString(), wallSeconds: 0, config: CONFIG, machine, errors: [] };
  const write = resultsWriter({ dir: RESULTS, name: 'push-latest', t0, machine, results, checkTargets, toMarkdown });
  await assertPortsFree(PUSH_STACK);
  const u = stackUrls(PUSH_STACK);
  log(`starting Temporal; recreating database ${PUSH_STACK.db}`);
  const temporal = startTemporal(logDir, PUSH_STACK);
  temporalDir = temporal.dir;
  machine.postgres = await prepareDatabase(u, logDir, PUSH_STACK);
  await waitForTemporal(temporal.child, PUSH_STACK);
  const apps = startApps(u, logDir, CONFIG.profileDir, CONFIG.workers);
  sinkDir = apps.sinkDir;
  const pool = new Pool({ connectionString: u.benchDb, max: 4 });
  const step = async (name: string, fn: () => Promise<void>) => {
    log(name);
    try {
      await fn();
    } catch (err) {
      results.errors.push(`${name}: ${(err as Error).stack ?? err}`);
      log(`FAILED ${name}: ${(err as Error).message}`);
    } finally {
      write();
    }
  };
  try {
    await waitForApps(apps);
    const api = `http://127.0.0.1:${PUSH_PORTS.api}`;
    const tenant = await setUpTenant(api);
    const peerUrl = `http://127.0.0.1:${PUSH_PORTS.peer}`;
    const run = Date.now().toString(36);
    const workers = Object.fromEntries(apps.workers.map((w, i) => [i ? `worker ${i + 1}` : 'worker', w]));
    const groups = pushCpuGroups({ api: apps.api, ...workers, sink: apps.sink, 'register peer': apps.peer }, u.redis);
    await step('warm-up', async () => {
      await registerLoad(api, '/api/v1/devices/register', tenant.appId, { connections: 4, sec: 1, tag: `warm-${run}`, apiKey: tenant.apiKey });
      await registerLoad(peerUrl, '/devices/register', tenant.appId, { connections: 4, sec: 1, tag: `warm-peer-${run}` });
      const ids = await insertDevices(pool, tenant.appId, 10, `warm-send-${run}`);
      await sendPhase(tenant, ids, 1, apps.sinkDir, 60);
    });
    if (CONFIG.phases.includes('register')) await step(`register: ${CONFIG.rounds} × (app, peer)`, async () => {
      const load = (target: string, path: string, tag: string, apiKey?: string) =>
        registerLoad(target, path, tenant.appId, { connections: CONFIG.connections, sec: CONFIG.registerSec, tag, apiKey });
      const r = await alternate({
        rounds: CONFIG.rounds,
        groups,
        nproc: machine.nproc,
        app: (i) => load(api, '/api/v1/devices/register', `app-${run}-${i}`, tenant.apiKey),
        peer: (i) => load(peerUrl, '/devices/register', `peer-${run}-${i}`),
        appRate: rps,
        peerRate: rps,
        appUnits: (s) => s.requests,
        peerUnits: (s) => s.requests,
        onPair: (p, i) => log(`register round ${i + 1}: app ${p.app.rps.toFixed(0)}/s (non-2xx ${p.app.non2xx}), peer ${p.peer.rps.toFixed(0)}/s → ${p.ratio.toFixed(2)}`),
      });
      results.register = {
        app: r.median.app,
        peer: r.median.peer,
        ratio: r.median.ratio,
        rounds: r.pairs.map((p) => ({ app: p.app.rps, peer: p.peer.rps, ratio: p.ratio })),
        cpuMsPerRequest: { app: r.cpuMsApp, peer: r.cpuMsPeer },
      };
      log(`register: median ratio ${r.median.ratio.toFixed(2)}; CPU ms/request: app ${JSON.stringify(r.cpuMsApp)}; peer ${JSON.stringify(r.cpuMsPeer)}`);
    });
    if (CONFIG.phases.includes('send')) await step(`send: ${CONFIG.rounds} × (sink raw capacity, ${CONFIG.calls} calls × ${CONFIG.devices} devices)`, async () => {
      const ids = await insertDevices(pool, tenant.appId, CONFIG.devices, `send-${run}`);
      const r = await alternate({
        rounds: CONFIG.rounds,
        groups,
        nproc: machine.nproc,
        peerFirst: true,
        peer: () => measureSinkCapacity({ url: apps.sinkUrl, service: 'fcm', durationMs: CONFIG.rawSec * 1000, concurrency: CONFIG.rawConcurrency }),
        app: () => sendPhase(tenant, ids, CONFIG.calls, apps.sinkDir, CONFIG.drainSec),
        appRate: (s) => s.pushesPerSec,
        peerRate: (c) => c.perSecond,
        appUnits: (s) => s.received,
        peerUnits: (c) => c.messages,
        onPair: (p, i) =>
          log(`send round ${i + 1}: raw ${p.peer.perSecond.toFixed(0)}/s (${p.peer.failures} failed), send ${p.app.received}/${p.app.pushes} pushes ${p.app.pushesPerSec.toFixed(0)}/s, call → last device p99 ${p.app.callToLast.p99.toFixed(0)} ms → ${p.ratio.toFixed(2)}`),
      });
      results.sink = { ...r.median.peer, cpuMsPerPush: r.cpuMsPeer };
      results.send = {
        ...r.median.app,
        ratioToSink: r.median.ratio,
        rounds: r.pairs.map((p) => ({ app: p.app.pushesPerSec, peer: p.peer.perSecond, ratio: p.ratio, received: p.app.received, pushes: p.app.pushes })),
        cpuMsPerPush: r.cpuMsApp,
      };
      log(`send: median ratio ${r.median.ratio.toFixed(2)}; CPU ms/push: send ${JSON.stringify(r.cpuMsApp)}; raw ${JSON.stringify(r.cpuMsPeer)}`);
    });
    if (CONFIG.phases.includes('send')) await step(`firebase-admin alone: ${CONFIG.rounds} × ${CONFIG.rawSec} s`, async () => {
      const runs: LibraryCapacity[] = [];
      for (let i = 0; i < CONFIG.rounds; i++) runs.push(await measureLibraryCapacity({ url: apps.sinkUrl, durationMs: CONFIG.rawSec * 1000 }));
      const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
      results.library = { ...sorted[Math.floor(sorted.length / 2)], runs: runs.map((x) => x.perSecond) };
      log(`firebase-admin alone: ${runs.map((x) => `${x.perSecond.toFixed(0)}/s (${x.failures} failed)`).join(', ')}`);
    });
  } catch (err) {
    results.errors.push(`set-up: ${(err as Error).stack ?? err}`);
    log(`FAILED set-up: ${(err as Error).message}`);
  } finally {
    await pool.end();
    console.log(write());
    await teardown();
  }
  return results.errors.length ? 1 : 0;
}

runGuarded(main, { label: 'bench:push', log, teardown, watchdogMs: WATCHDOG_MS });
