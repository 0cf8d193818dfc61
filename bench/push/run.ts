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
// Knobs: BENCH_PUSH_CALLS (20), BENCH_PUSH_DEVICES (1000), BENCH_PUSH_REGISTER_SEC (10),
// BENCH_PUSH_CONNECTIONS (32), BENCH_PUSH_RAW_SEC (5), BENCH_PROFILE=quick (a smoke run:
// 2 calls, 3 s of registration, 2 s of raw capacity); BENCH_PUSH_PHASES=register|send
// (one phase only), BENCH_PUSH_PROFILE_DIR=<dir> (CPU profiles of the API, worker, sink, peer).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { RunStats } from '../lib/load';
import { killAllSync, stopAll, type Child } from '../lib/procs';
import { resultsWriter } from '../lib/results';
import { assertPortsFree, loadEnvFile, logDirFor, machineInfo, prepareDatabase, removeDir, ROOT, stackUrls, startTemporal, waitForTemporal, type Machine } from '../lib/stack';
import { insertDevices, registerLoad, sendPhase, setUpTenant, type SendPhase } from './phases';
import { msPer, pushCpuGroups, withCpu } from './cpu';
import { measureSinkCapacity, type SinkCapacity } from './sink-capacity';
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
  registerSec: int(process.env.BENCH_PUSH_REGISTER_SEC, quick ? 3 : 10),
  connections: int(process.env.BENCH_PUSH_CONNECTIONS, 32),
  rawSec: int(process.env.BENCH_PUSH_RAW_SEC, quick ? 2 : 5),
  rawConcurrency: 64,
  drainSec: 120,
  /** BENCH_PUSH_PROFILE_DIR: the API, worker, sink and peer write V8 CPU profiles there */
  profileDir: process.env.BENCH_PUSH_PROFILE_DIR || undefined,
  /** BENCH_PUSH_PHASES: which measured phases run (profiling one of them); default both */
  phases: (process.env.BENCH_PUSH_PHASES ?? 'register,send').split(',').map((x) => x.trim()),
};

/** CPU milliseconds per request or push, per component (bench/push/cpu.ts) */
type CpuMs = Record<string, number>;

interface PushResults {
  startedAt: string;
  wallSeconds: number;
  config: typeof CONFIG;
  machine: Machine;
  errors: string[];
  register?: { app: RunStats; peer: RunStats; ratio: number; cpuMsPerRequest?: { app: CpuMs; peer: CpuMs } };
  sink?: SinkCapacity & { cpuMsPerPush?: CpuMs };
  send?: SendPhase & { ratioToSink?: number; cpuMsPerPush?: CpuMs };
  targets?: Record<string, { aim: string; value: number | null; met: boolean | null }>;
}

function checkTargets(r: PushResults): PushResults['targets'] {
  const ratioToSink = r.send && r.sink ? r.send.pushesPerSec / r.sink.perSecond : null;
  if (r.send && ratioToSink !== null) r.send.ratioToSink = ratioToSink;
  return {
    registerVsPeer: { aim: '≥ 0.5', value: r.register?.ratio ?? null, met: r.register ? r.register.ratio >= 0.5 : null },
    sendVsSink: { aim: '≥ 0.5', value: ratioToSink, met: ratioToSink === null ? null : ratioToSink >= 0.5 },
    everyPushArrived: { aim: 'all', value: r.send ? r.send.received : null, met: r.send ? r.send.received === r.send.pushes : null },
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
    lines.push(`| pushes/s reaching the sink (${s.calls} calls × ${s.devicesPerCall} devices) | ${f(s.pushesPerSec)} | ${f(r.sink?.perSecond)} (sink raw capacity: bare HTTP/2 FCM client, ${r.config.rawConcurrency} in flight) | ${f(s.ratioToSink, 2)} | ≥ 0.5 |`);
    lines.push(
      '',
      `Sends: ${s.received}/${s.pushes} pushes at the sink; API call → last device of the call: p50 ${f(s.callToLast.p50)} ms, p99 ${f(s.callToLast.p99)} ms, max ${f(s.callToLast.max)} ms; ` +
        `API call → each push: p50 ${f(s.perPush.p50)} ms, p99 ${f(s.perPush.p99)} ms; the 202 itself: p50 ${f(s.api.p50)} ms, p99 ${f(s.api.p99)} ms.`,
    );
  }
  const cpuLine = (what: string, ms: CpuMs | undefined) =>
    ms && lines.push(`- ${what}: ${Object.entries(ms).map(([g, v]) => `${g} ${v.toFixed(3)}`).join(', ')}`);
  if (r.register?.cpuMsPerRequest || r.send?.cpuMsPerPush) lines.push('', 'CPU ms per request / push (from /proc; steadier than rates on a shared machine):');
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
process.on('exit', killAllSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    log(`${sig}: tearing down`);
    void teardown().finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  loadEnvFile();
  setTimeout(() => {
    log('watchdog: the run took too long; tearing down');
    void teardown().finally(() => process.exit(1));
  }, WATCHDOG_MS).unref();
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
  const apps = startApps(u, logDir, CONFIG.profileDir);
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
    const groups = pushCpuGroups({ api: apps.api, worker: apps.worker, sink: apps.sink, 'register peer': apps.peer }, u.redis);
    await step('warm-up', async () => {
      await registerLoad(api, '/api/v1/devices/register', tenant.appId, { connections: 4, sec: 1, tag: `warm-${run}`, apiKey: tenant.apiKey });
      await registerLoad(peerUrl, '/devices/register', tenant.appId, { connections: 4, sec: 1, tag: `warm-peer-${run}` });
      const ids = await insertDevices(pool, tenant.appId, 10, `warm-send-${run}`);
      await sendPhase(tenant, ids, 1, apps.sinkDir, 60);
    });
    if (CONFIG.phases.includes('register')) await step('register: app, then peer', async () => {
      const app = await withCpu(groups, machine.nproc, () =>
        registerLoad(api, '/api/v1/devices/register', tenant.appId, { connections: CONFIG.connections, sec: CONFIG.registerSec, tag: `app-${run}`, apiKey: tenant.apiKey }),
      );
      const peer = await withCpu(groups, machine.nproc, () =>
        registerLoad(peerUrl, '/devices/register', tenant.appId, { connections: CONFIG.connections, sec: CONFIG.registerSec, tag: `peer-${run}` }),
      );
      results.register = {
        app: app.value,
        peer: peer.value,
        ratio: app.value.rps / peer.value.rps,
        cpuMsPerRequest: { app: msPer(app.cpu, app.value.requests), peer: msPer(peer.cpu, peer.value.requests) },
      };
      const { app: a, peer: p } = results.register.cpuMsPerRequest!;
      log(`register: app ${app.value.rps.toFixed(0)}/s (non-2xx ${app.value.non2xx}), peer ${peer.value.rps.toFixed(0)}/s → ${results.register.ratio.toFixed(2)}`);
      log(`register CPU ms/request: app ${JSON.stringify(a)}; peer ${JSON.stringify(p)}`);
    });
    if (CONFIG.phases.includes('send')) await step('sink raw capacity', async () => {
      const raw = await withCpu(groups, machine.nproc, () =>
        measureSinkCapacity({ url: apps.sinkUrl, service: 'fcm', durationMs: CONFIG.rawSec * 1000, concurrency: CONFIG.rawConcurrency }),
      );
      results.sink = { ...raw.value, cpuMsPerPush: msPer(raw.cpu, raw.value.messages) };
      log(`sink: ${results.sink.perSecond.toFixed(0)} pushes/s raw (${results.sink.failures} failed)`);
    });
    if (CONFIG.phases.includes('send')) await step(`send: ${CONFIG.calls} calls × ${CONFIG.devices} devices`, async () => {
      const ids = await insertDevices(pool, tenant.appId, CONFIG.devices, `send-${run}`);
      const sent = await withCpu(groups, machine.nproc, () => sendPhase(tenant, ids, CONFIG.calls, apps.sinkDir, CONFIG.drainSec));
      results.send = { ...sent.value, cpuMsPerPush: msPer(sent.cpu, sent.value.received) };
      log(`send CPU ms/push: ${JSON.stringify(results.send.cpuMsPerPush)}; raw: ${JSON.stringify(results.sink?.cpuMsPerPush)}`);
      log(`send: ${results.send.received}/${results.send.pushes} pushes, ${results.send.pushesPerSec.toFixed(0)}/s, call → last device p99 ${results.send.callToLast.p99.toFixed(0)} ms`);
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

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    void teardown().finally(() => process.exit(1));
  },
);
