// `npm run bench:webhooks`: webhook delivery measured end to end (docs/benchmarks.md,
// "Webhooks"). Starts its own Temporal dev server, database, API, `webhooks` worker
// (with the outbox dispatcher) and the peers; registers two endpoints subscribed to
// player.created on one loopback receiver that answers in 5 ms; drives new players
// through `POST /v1/players` at a fixed open-loop rate and measures, from the API call to
// the receiver, every delivery. Next to it, in the same run: a bare signed-POST sender
// against the same receiver, and the bare workflow-plus-activity rate of the same
// Temporal server. The platform phase does the same with platform ticket changes (create,
// resolve, close through /platform/v1, run by a `platform` worker) delivered to two
// platform endpoints on the same receiver (platform-source.ts). Writes
// bench/results/webhooks-latest.{json,md}; tears everything
// down, also on error, Ctrl-C and a watchdog. Bounded in requests and time; 127.0.0.1 only.
//
// Knobs: BENCH_WEBHOOK_RATE (100 events/s), BENCH_WEBHOOK_SEC (30), BENCH_WEBHOOK_STEPS
// ("150,200,300,400"), BENCH_WEBHOOK_STEP_SEC (10), BENCH_WEBHOOK_PLATFORM_RATE (100
// events/s), BENCH_WEBHOOK_PLATFORM_SEC (as BENCH_WEBHOOK_SEC), BENCH_WEBHOOK_PHASES,
// BENCH_PROFILE=quick (short smoke run); docs/benchmarks.md.
import type { Client } from '@temporalio/client';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createBenchKey } from '../lib/key';
import { aggregate, type RunStats } from '../lib/load';
import { runGuarded } from '../lib/run-guard';
import { sleep, stopAll, waitFor, type Child } from '../lib/procs';
import { loadEnvFile, logDirFor, machineInfo, removeDir, ROOT } from '../lib/stack';
import { connectClient } from '../peers/noop-workflow';
import { Rng, seedTenant } from '../seed';
import { breakdown } from './breakdown';
import { cpuBetween, snapshot, waitForQuiet, type CpuUse, type Groups } from '../lib/cpu';
import { countReceived, runPhase, type PhaseResult } from './phase';
import type { Call } from './source';
import { startReceiver } from './receiver';
import { accessToken, endpointSecret, platformTenantWithEndpoints, registerEndpoints, runPostPeer } from './setup';
import { checkTargets, toMarkdown, type WebhookResults } from './report';
import { runPlatformPhase } from './platform-phase';
import { assertPortsFree, prepareDatabase, startApps, startTemporal, waitForApps, waitForTemporal, WH_PORTS, whUrls, workerCount } from './stack';
import { peerOnce, runTemporalPeer } from './temporal-peer';
import { scrape, summarize, type TemporalPhaseMetrics } from './temporal-metrics';
import { WH_PEER_QUEUE } from './peer.contract';
import { resultsWriter } from '../lib/results';

const RESULTS = join(ROOT, 'bench', 'results');
const WATCHDOG_MS = 15 * 60_000;
const t0 = Date.now();
const log = (line: string) => console.log(`[bench:webhooks ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s] ${line}`);

const int = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
const quick = process.env.BENCH_PROFILE === 'quick';
const CONFIG = {
  profile: quick ? 'quick' : 'full',
  rate: int(process.env.BENCH_WEBHOOK_RATE, 100),
  durationSec: int(process.env.BENCH_WEBHOOK_SEC, quick ? 10 : 30),
  /** the platform phase: events a second from platform ticket changes, and for how long */
  platformRate: int(process.env.BENCH_WEBHOOK_PLATFORM_RATE, 100),
  platformSec: int(process.env.BENCH_WEBHOOK_PLATFORM_SEC, int(process.env.BENCH_WEBHOOK_SEC, quick ? 10 : 30)),
  /** when the platform run misses its aim, these lower rates (events/s) are tried, highest first, until one meets it */
  platformStepsDown: (process.env.BENCH_WEBHOOK_PLATFORM_STEPS ?? (quick ? '50' : '75,50,25')).split(',').map(Number).filter((x) => x > 0),
  drainSec: 30,
  steps: (process.env.BENCH_WEBHOOK_STEPS ?? (quick ? '200' : '150,200,300,400')).split(',').map(Number).filter((x) => x > 0),
  /** when the main rate does not keep up, the steps go down instead */
  stepsDown: [80, 60, 50, 40, 25],
  stepSec: int(process.env.BENCH_WEBHOOK_STEP_SEC, quick ? 5 : 10),
  receiverDelayMs: 5,
  endpoints: 2,
  postPeer: { count: quick ? 5_000 : 20_000, concurrency: 32, maxSec: 30 },
  temporalPeer: { connections: 32, sec: quick ? 4 : 10, warmSec: quick ? 1 : 3, rounds: quick ? 1 : 2 },
  historySample: 300,
  /** set: the what-if worker with these extra Worker options ran instead of workers/main.ts */
  whatIfWorkerOptions: process.env.BENCH_WEBHOOK_WORKER_OPTIONS || null,
  workers: workerCount(),
  /** set: extra arguments the Temporal dev server ran with (what-if) */
  whatIfTemporalArgs: process.env.BENCH_WEBHOOK_TEMPORAL_ARGS || null,
  /** BENCH_WEBHOOK_PHASES: which phases to run (experiments); default all */
  phases: (process.env.BENCH_WEBHOOK_PHASES ?? 'temporal,main,platform,post,steps').split(',').map((x) => x.trim()),
};
const runs = (phase: string) => CONFIG.phases.includes(phase);

let temporalDir: string | undefined;
let tearingDown: Promise<void> | null = null;
function teardown(): Promise<void> {
  return (tearingDown ??= stopAll(5000, (c: Child) => (c.name === 'wh-temporal' ? 1 : 0)).then(() => removeDir(temporalDir)));
}

async function main(): Promise<number> {
  loadEnvFile();
  mkdirSync(RESULTS, { recursive: true });
  const logDir = logDirFor(RESULTS);
  const u = whUrls();
  const machine = machineInfo();
  log(`machine: ${machine.nproc} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; 1-min load ${machine.loadAvgStart}; logs in ${logDir}`);
  await assertPortsFree();

  const results: WebhookResults = { startedAt: new Date(t0).toISOString(), wallSeconds: 0, config: CONFIG, machine, errors: [], loadAvg: {} };
  const write = resultsWriter({ dir: RESULTS, name: 'webhooks-latest', t0, machine, results, checkTargets, toMarkdown });

  log('starting Temporal dev server; recreating database support_bench_webhooks');
  const temporal = startTemporal(logDir);
  temporalDir = temporal.dir;
  machine.postgres = await prepareDatabase(u, logDir);
  const pool = new Pool({ connectionString: u.benchDb, max: 4 });
  // one scale-plan organization and workspace, an admin key (the tenant shape of `npm run bench`)
  const tenant = await seedTenant(pool, { seed: 2001, name: 'webhooks', players: 0, agents: 0, nowMs: Date.now() });
  const key = await createBenchKey(u.benchDb, tenant.organizationId, 'bench webhooks');
  await waitForTemporal(temporal.child);
  log(`Temporal ready; starting API, webhooks worker (dispatcher), Temporal peer worker${runs('platform') ? ', platform worker' : ''}; receiver on 127.0.0.1`);
  const apps = startApps(u, logDir, { platform: runs('platform') });
  const receiver = await startReceiver(WH_PORTS.receiver, CONFIG.receiverDelayMs);
  const api = `http://127.0.0.1:${WH_PORTS.api}`;
  let postPeerChild: Child | undefined;
  const groups: Groups = {
    api: (p) => p.pgrp === apps.api.proc.pid,
    'webhooks worker': (p) => apps.workers.some((w) => p.pgrp === w.proc.pid),
    'platform worker': (p) => p.pgrp === apps.platformWorker?.proc.pid,
    'Temporal server': (p) => p.pgrp === temporal.child.proc.pid,
    Postgres: (p) => p.comm === 'postgres',
    Redis: (p) => p.comm.startsWith('redis-server'),
    'bench (source + receiver)': (p) => p.pid === process.pid,
    'Temporal peer worker': (p) => p.pgrp === apps.peerWorker.proc.pid,
    'signed-POST peer': (p) => p.pgrp === postPeerChild?.proc.pid,
  };
  const metricsUrl = `http://127.0.0.1:${WH_PORTS.temporalMetrics}/metrics`;
  /** runs fn, with the CPU of every component and the Temporal server's own counters for `taskQueue` over it */
  const measureCpu = async <T>(fn: () => Promise<T>, taskQueue = 'webhooks'): Promise<{ value: T; cpu: CpuUse; temporal?: TemporalPhaseMetrics }> => {
    (results.quietWaitMs ??= []).push(Math.round(await waitForQuiet(machine.nproc)));
    const m0 = await scrape(metricsUrl).catch(() => undefined);
    const a = snapshot(groups);
    const value = await fn();
    const cpu = cpuBetween(a, snapshot(groups), machine.nproc);
    const m1 = m0 && (await scrape(metricsUrl).catch(() => undefined));
    return { value, cpu, temporal: m0 && m1 ? summarize(m0, m1, taskQueue) : undefined };
  };
  let t: { client: Client; close(): Promise<void> } | undefined;
  try {
    await waitForApps(apps);
    t = await connectClient(u.temporal);
    const client = t.client;
    const token = await accessToken(api, key.key, tenant.organizationId);
    await registerEndpoints(api, token, tenant.workspaceId, receiver);
    results.endpointsVia = 'POST /v1/webhooks';
    log(`two endpoints subscribed to player.created (via ${results.endpointsVia}): ${receiver.url}/a and /b`);
    const platform = runs('platform') ? await platformTenantWithEndpoints(u.benchDb, receiver) : undefined;
    if (platform) {
      results.platformEndpointsVia = "registerEndpoint (domain/webhooks/register-endpoint.ts) with api 'platform'";
      log(`platform tenant ${platform.organizationId}; two platform endpoints subscribed to its ticket events: ${receiver.url}/pa and /pb`);
    }

    const phaseCalls = new Map<string, Call[]>();
    const base = { api, token, workspaceId: tenant.workspaceId, endpoints: CONFIG.endpoints, drainSec: CONFIG.drainSec, pool };
    const runId = new Rng(Date.now() % 2 ** 31).int(1e9).toString(36);
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
      const load = Math.round(loadavg()[0] * 100) / 100;
      results.loadAvg![name] = load;
      log(`${name} (1-min load average ${load})`);
      try {
        return await fn();
      } catch (err) {
        const msg = `${name}: ${(err as Error).stack ?? err}`;
        log(`FAILED ${msg}`);
        results.errors!.push(msg);
        return undefined;
      } finally {
        write();
      }
    };
    const phaseLine = (p: PhaseResult) =>
      `${p.rate} events/s × ${p.durationSec} s: ${p.received}/${p.expected} deliveries, lost ${p.lost}, ` +
      `${p.deliveredPerSec.toFixed(0)} deliveries/s, latency p50 ${p.latency.p50.toFixed(0)} p99 ${p.latency.p99.toFixed(0)} max ${p.latency.max.toFixed(0)} ms, ` +
      `API p99 ${p.source.api.p99.toFixed(0)} ms, tail ${p.tailMs.toFixed(0)} ms → ${p.keepsUp ? 'keeps up' : 'does NOT keep up'}` +
      (p.lost > 0 ? `; unmatched keys, first ${p.unmatched.length}: ${p.unmatched.join(' ')}` : '');

    // Warm-up, unrecorded: the API's and the worker's first requests, the workflow bundle,
    // the worker's first workflows, the peer worker; and every delivery of it drained.
    await step('warm-up', async () => {
      const w = await runPhase({ ...base, name: 'warm-up', prefix: `warm-${runId}`, rate: 20, durationSec: quick ? 2 : 4 }, receiver);
      log(`warm-up: ${w.result.received}/${w.result.expected} delivered, p50 ${w.result.latency.p50.toFixed(0)} ms`);
      if (w.result.received === 0) throw new Error('no delivery reached the receiver during the warm-up');
      await waitFor('Temporal peer worker', async () => (await Promise.race([peerOnce(client, 0).then(() => true), sleep(10_000).then(() => false)])), 60_000, apps.peerWorker);
      await peerOnce(client, 0, true);
    });
    if (!results.errors!.length) {
      const temporalRound = async (round: number) => {
        const out = {} as { normal: RunStats; local: RunStats; cpuNormal: CpuUse; cpuLocal: CpuUse; temporalNormal?: TemporalPhaseMetrics; temporalLocal?: TemporalPhaseMetrics };
        for (const local of [false, true]) {
          const label = local ? 'local' : 'normal';
          await runTemporalPeer(client, CONFIG.temporalPeer.connections, CONFIG.temporalPeer.warmSec, local);
          const { value, cpu, temporal: tm } = await measureCpu(() => runTemporalPeer(client, CONFIG.temporalPeer.connections, CONFIG.temporalPeer.sec, local), WH_PEER_QUEUE);
          if (local) [out.local, out.cpuLocal, out.temporalLocal] = [value, cpu, tm];
          else [out.normal, out.cpuNormal, out.temporalNormal] = [value, cpu, tm];
          log(`Temporal peer round ${round}, ${label} activity: ${value.rps.toFixed(1)} workflows/s, p50 ${value.p50.toFixed(0)} p99 ${value.p99.toFixed(0)} ms, errors ${value.errors}`);
        }
        return out;
      };
      const rounds: Awaited<ReturnType<typeof temporalRound>>[] = [];
      const peerTemporal = () => {
        results.temporalPeer = {
          connections: CONFIG.temporalPeer.connections,
          normal: aggregate(rounds.map((x) => x.normal)),
          local: aggregate(rounds.map((x) => x.local)),
          cpuNormal: rounds.map((x) => x.cpuNormal),
          cpuLocal: rounds.map((x) => x.cpuLocal),
          temporalNormal: rounds.map((x) => x.temporalNormal),
          temporalLocal: rounds.map((x) => x.temporalLocal),
        };
      };

      if (runs('main')) await step(`main run: ${CONFIG.rate} events/s for ${CONFIG.durationSec} s`, async () => {
        const prefix = `main-${runId}`;
        const { value, cpu, temporal: tm } = await measureCpu(() => runPhase({ ...base, name: 'main', prefix, rate: CONFIG.rate, durationSec: CONFIG.durationSec }, receiver));
        log(phaseLine(value.result));
        results.main = { ...value.result, cpu, temporal: tm };
        phaseCalls.set('main', value.calls);
        log('latency breakdown: database timestamps of every delivery, Temporal history of a sample');
        results.breakdown = await breakdown(pool, client, prefix, value.calls, receiver, CONFIG.historySample);
      });

      if (platform) await step(`platform run: ${CONFIG.platformRate} events/s for ${CONFIG.platformSec} s`, () =>
        runPlatformPhase({
          base,
          platform,
          receiver,
          runId,
          log,
          phaseLine,
          config: { ...CONFIG, warmSec: quick ? 2 : 4 },
          measure: (fn) => measureCpu(fn),
          onResult(name, measured, calls, isStep) {
            if (isStep) (results.platformSteps ??= []).push(measured);
            else results.platform = measured;
            phaseCalls.set(name, calls);
            write();
          },
        }),
      );

      if (runs('post')) await step('signed-POST peer', async () => {
        const secret = await endpointSecret(receiver);
        const { value, cpu } = await measureCpu(() => runPostPeer(receiver, secret, CONFIG.postPeer, logDir, (c) => (postPeerChild = c)));
        // the sender has exited when the phase's CPU is read: take its own account of its loop
        cpu.cores['signed-POST peer'] = (value.senderCores * value.seconds) / cpu.seconds;
        cpu.otherCores = Math.max(0, cpu.otherCores - cpu.cores['signed-POST peer']);
        results.postPeer = { ...value, cpu };
        log(`signed-POST peer: ${value.rps.toFixed(0)} requests/s, p50 ${value.p50.toFixed(1)} p99 ${value.p99.toFixed(1)} ms, failed ${value.failed}; receiver counted ${receiver.counters.peer}`);
      });

      if (runs('steps')) await step('steps: the highest rate that keeps up', async () => {
        const up = results.main?.keepsUp !== false;
        const rates = up ? CONFIG.steps.filter((r) => r > CONFIG.rate) : CONFIG.stepsDown.filter((r) => r < CONFIG.rate);
        results.steps = [];
        for (const rate of rates) {
          const { value, cpu, temporal: tm } = await measureCpu(() =>
            runPhase({ ...base, name: `step ${rate}`, prefix: `step${rate}-${runId}`, rate, durationSec: CONFIG.stepSec }, receiver),
          );
          results.steps.push({ ...value.result, cpu, temporal: tm });
          phaseCalls.set(`step ${rate}`, value.calls);
          log(`step ${phaseLine(value.result)}`);
          write();
          // going up: stop at the first rate that does not keep up; going down: at the first that does
          if (up ? !value.result.keepsUp : value.result.keepsUp) break;
        }
        // where the latency goes at the highest rate that kept up, when that is a step
        const best = results.steps.filter((p) => p.keepsUp).sort((a, b) => b.rate - a.rate)[0];
        if (best && !(results.main?.keepsUp && results.main.rate >= best.rate)) {
          log(`latency breakdown of step ${best.rate}`);
          results.breakdownSustained = { rate: best.rate, ...(await breakdown(pool, client, best.prefix, phaseCalls.get(`step ${best.rate}`)!, receiver, CONFIG.historySample)) };
        }
      });

      // The Temporal peer runs last: measured right before the main run, its few thousand
      // workflows slowed the main run's first seconds (p99 439–602 ms against 284 without it).
      if (runs('temporal')) await step('Temporal peer, round 1', async () => {
        rounds.push(await temporalRound(1));
        peerTemporal();
      });

      if (runs('temporal') && CONFIG.temporalPeer.rounds > 1) {
        await step('Temporal peer, round 2', async () => {
          rounds.push(await temporalRound(2));
          peerTemporal();
        });
      }
      results.receiver = { ...receiver.counters };
      results.finalLoss = {};
      for (const [name, calls] of phaseCalls) results.finalLoss[name] = countReceived(calls, receiver, CONFIG.endpoints);
    }
  } finally {
    await t?.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await receiver.stop().catch(() => undefined);
  }
  const md = write();
  console.log('\n' + md);
  log(`wrote bench/results/webhooks-latest.md and webhooks-latest.json`);
  return results.errors!.length ? 1 : 0;
}

runGuarded(main, { label: 'bench:webhooks', log, teardown, watchdogMs: WATCHDOG_MS });
