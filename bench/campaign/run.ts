// `npm run bench:campaign`: campaigns and event triggers measured (docs/benchmarks.md,
// "Campaign benchmark"). Starts its own stack (bench:push's pieces, bench/push/stack.ts,
// on this bench's own ports, database and Redis db), seeds an app's audience (half
// Android/FCM, half iOS/APNs, the sink's demo credentials) through the devices
// repository, then for one push worker and again for two:
//   1. the sink's raw capacity for the mix (bare HTTP/2 FCM and APNs clients at once) and
//      what firebase-admin alone reaches against the same sink (bench/push/library-capacity.ts);
//   2. one campaign to every device (POST /campaigns, POST /campaigns/{id}/send): devices/s,
//      from the send call to the sink's last record, each device once;
//   3. the largest workflow history of the campaign (`campaign/<id>`, its continued runs,
//      children, and whatever else the server started meanwhile), read with the Temporal client;
// then, with the workers the campaigns left running, the event-trigger phase
// (bench/campaign/fire.ts): delay-0 fires at a fixed rate, their 202s and their pushes at the
// sink (after the campaigns, so a backlog of firings never slows a campaign round); last,
// the most fires/s the API answers.
// Writes bench/results/campaign-latest.{json,md} after every phase; tears everything down,
// also on error, Ctrl-C and a watchdog. Bounded in devices, requests and time; 127.0.0.1 only.
//
// Knobs: BENCH_CAMPAIGN_DEVICES (100000), BENCH_CAMPAIGN_WORKERS (1,2: the push worker counts,
// one campaign each), BENCH_CAMPAIGN_RAW_SEC (5: each capacity measurement),
// BENCH_CAMPAIGN_RAW_CONCURRENCY (128 bare-client requests in flight per service),
// BENCH_CAMPAIGN_FIRE_RATE (250/s), BENCH_CAMPAIGN_FIRE_SEC (20), BENCH_CAMPAIGN_FIRE_MAX_SEC
// (5: the closed-loop fire capacity; 0 skips it), BENCH_CAMPAIGN_PHASES=campaign,fire (one of
// them only), BENCH_CAMPAIGN_PROFILE_DIR=<dir> (V8 CPU profiles of the API, workers, sink);
// BENCH_PROFILE=quick: a fast check (10,000 devices, 2 s capacities, 5 s of fires).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { RunStats } from '../lib/load';
import { waitForQuiet, withCpu, type CpuUse } from '../lib/cpu';
import { runGuarded } from '../lib/run-guard';
import { stopAll, type Child } from '../lib/procs';
import { resultsWriter } from '../lib/results';
import { assertPortsFree, loadEnvFile, logDirFor, machineInfo, prepareDatabase, removeDir, ROOT, stackUrls, startTemporal, waitForTemporal, type StackSpec } from '../lib/stack';
import { pushCpuGroups } from '../push/cpu';
import { measureLibraryCapacity } from '../push/library-capacity';
import { setUpTenant } from '../push/phases';
import { startApps, waitForApps, waitForWorker } from '../push/stack';
import { campaignHistories } from './history';
import { campaignPhase, measureMixedCapacity, seedDevices } from './phases';
import { createFireTrigger, fireCapacity, firePhase } from './fire';
import { checkTargets, toMarkdown, type CampaignResults, type CpuMs, type WorkerRound } from './report';

const CAMPAIGN_PORTS = { temporal: 7310, temporalUi: 7311, temporalMetrics: 7312, api: 3950, peer: 3951, sink: 3952 };
/** bench/lib/stack.ts does the ports check, database and Temporal for this spec; bench/push/stack.ts the apps */
const CAMPAIGN_STACK: StackSpec = { label: 'bench:campaign', prefix: 'campaign-', ports: CAMPAIGN_PORTS, db: 'support_bench_campaign', redisDb: 5 };

const RESULTS = join(ROOT, 'bench', 'results');
const t0 = Date.now();
const log = (line: string) => console.log(`[bench:campaign ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const int = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number(v) >= 0 ? Math.floor(Number(v)) : d);
const quick = process.env.BENCH_PROFILE === 'quick';
const devices = Math.max(2, int(process.env.BENCH_CAMPAIGN_DEVICES, quick ? 10_000 : 100_000));
const CONFIG = {
  profile: quick ? 'quick' : 'full',
  devices,
  workers: (process.env.BENCH_CAMPAIGN_WORKERS ?? '1,2').split(',').map((x) => Math.max(1, Number(x) || 1)).sort((a, b) => a - b),
  rawSec: Math.max(1, int(process.env.BENCH_CAMPAIGN_RAW_SEC, quick ? 2 : 5)),
  /** bare-client requests in flight per service (FCM and APNs at once) */
  rawConcurrency: Math.max(1, int(process.env.BENCH_CAMPAIGN_RAW_CONCURRENCY, 128)),
  /** sendEach calls firebase-admin alone has in flight */
  libraryBatchesInFlight: 2,
  /** a campaign's wait for its last push: never less than 2 min, else 400 devices/s */
  drainSec: Math.max(120, Math.ceil(devices / 400)),
  fireRate: Math.max(1, int(process.env.BENCH_CAMPAIGN_FIRE_RATE, 250)),
  fireSec: Math.max(1, int(process.env.BENCH_CAMPAIGN_FIRE_SEC, quick ? 5 : 20)),
  fireDrainSec: 60,
  fireMaxSec: int(process.env.BENCH_CAMPAIGN_FIRE_MAX_SEC, quick ? 2 : 5),
  fireMaxConnections: 16,
  phases: (process.env.BENCH_CAMPAIGN_PHASES ?? 'campaign,fire').split(',').map((x) => x.trim()),
  /** BENCH_CAMPAIGN_PROFILE_DIR: the API, workers and sink write V8 CPU profiles there when they stop */
  profileDir: process.env.BENCH_CAMPAIGN_PROFILE_DIR || undefined,
};
const WATCHDOG_MS = (quick ? 10 : 10 + CONFIG.workers.length * Math.ceil(CONFIG.drainSec / 60)) * 60_000;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** CPU ms per unit (device, fire) per component */
function cpuPer(cpu: CpuUse, units: number): CpuMs {
  const out: CpuMs = {};
  for (const [g, cores] of Object.entries(cpu.cores)) {
    const v = units ? (cores * cpu.seconds * 1000) / units : 0;
    if (v >= 0.001) out[g] = Math.round(v * 1000) / 1000;
  }
  return out;
}

let temporalDir: string | undefined;
let sinkDir: string | undefined;
let tearingDown: Promise<void> | null = null;
const teardown = () =>
  (tearingDown ??= stopAll(5000, (c: Child) => (c.name === 'campaign-temporal' ? 1 : 0)).then(() => {
    removeDir(temporalDir);
    removeDir(sinkDir);
  }));

async function main(): Promise<number> {
  loadEnvFile();
  mkdirSync(RESULTS, { recursive: true });
  const logDir = logDirFor(RESULTS);
  const machine = machineInfo();
  const results: CampaignResults = { startedAt: new Date(t0).toISOString(), wallSeconds: 0, config: CONFIG, machine, errors: [], rounds: [] };
  const write = resultsWriter({ dir: RESULTS, name: 'campaign-latest', t0, machine, results, checkTargets, toMarkdown });
  await assertPortsFree(CAMPAIGN_STACK);
  const u = stackUrls(CAMPAIGN_STACK);
  log(`starting Temporal; recreating database ${CAMPAIGN_STACK.db}`);
  const temporal = startTemporal(logDir, CAMPAIGN_STACK);
  temporalDir = temporal.dir;
  machine.postgres = await prepareDatabase(u, logDir, CAMPAIGN_STACK);
  await waitForTemporal(temporal.child, CAMPAIGN_STACK);
  const apps = startApps(u, logDir, CONFIG.profileDir, CONFIG.workers[0], CAMPAIGN_STACK);
  sinkDir = apps.sinkDir;
  let connection: Connection | undefined;
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
  const quiet = async () => {
    const ms = await waitForQuiet(machine.nproc);
    if (ms > 14_000) log('the machine did not quieten within 15 s; measuring anyway');
  };
  try {
    await waitForApps(apps);
    connection = await Connection.connect({ address: u.temporal });
    const client = new Client({ connection, namespace: 'default' });
    const api = `http://127.0.0.1:${CAMPAIGN_PORTS.api}`;
    const tenant = await setUpTenant(api);
    // a second app for warm-up campaigns: the code paths and worker warm, the measured app's devices untouched
    const warm = await setUpTenant(api);
    const run = Date.now().toString(36);
    let deviceIds: string[] = [];
    await step(`seed: ${CONFIG.devices} devices (half Android, half iOS) through the devices repository`, async () => {
      const s = Date.now();
      deviceIds = await seedDevices(u.benchDb, tenant.appId, CONFIG.devices, `dev-${run}`);
      await seedDevices(u.benchDb, warm.appId, 20, `warm-${run}`);
      results.seeded = { devices: deviceIds.length, seconds: (Date.now() - s) / 1000 };
    });
    const cpuGroups = () => {
      const named = Object.fromEntries(apps.workers.map((w, i) => [i ? `worker ${i + 1}` : 'worker', w]));
      return pushCpuGroups({ api: apps.api, ...named, sink: apps.sink, 'Temporal server': temporal.child }, u.redis);
    };
    // the campaigns, one per worker count (a worker added between them); without them, the fires run with the first count
    for (const workers of CONFIG.phases.includes('campaign') ? CONFIG.workers : CONFIG.workers.slice(0, 1)) {
      while (apps.workers.length < workers) apps.addWorker();
      await Promise.all(apps.workers.map(waitForWorker));
      const groups = cpuGroups();
      const round: WorkerRound = { workers };
      if (CONFIG.phases.includes('campaign')) {
        results.rounds.push(round);
        await step(`${workers} worker(s): warm-up campaign (20 devices of another app)`, async () => {
          const w = await campaignPhase(warm, { devices: 20, sinkDir: apps.sinkDir, drainSec: 60, label: `warm-${workers}` });
          log(`warm-up: ${w.received}/20 devices, status ${w.finalStatus}`);
        });
        // the capacities before and after the campaign (their mean is the ratios' divisor): on a
        // shared machine one measurement a minute away from the campaign can be off by a factor
        const capacities = (when: 'before' | 'after') =>
          step(`${workers} worker(s): sink raw capacity (FCM + APNs at once) and firebase-admin alone, ${CONFIG.rawSec} s each, ${when} the campaign`, async () => {
            await quiet();
            const { value, cpu } = await withCpu(groups, machine.nproc, () => measureMixedCapacity(apps.sinkUrl, CONFIG.rawSec * 1000, CONFIG.rawConcurrency));
            const sinkRuns = [...(round.sink?.runs ?? []), value];
            round.sink = { ...value, perSecond: mean(sinkRuns.map((x) => x.perSecond)), runs: sinkRuns, cpuMsPerPush: cpuPer(cpu, value.messages) };
            log(`sink raw: ${value.perSecond.toFixed(0)}/s (FCM ${value.fcm.perSecond.toFixed(0)}/s + APNs ${value.apns.perSecond.toFixed(0)}/s; ${value.failures} failed)`);
            const lib = await measureLibraryCapacity({ url: apps.sinkUrl, durationMs: CONFIG.rawSec * 1000, batchesInFlight: CONFIG.libraryBatchesInFlight });
            const libRuns = [...(round.library?.runs ?? []), lib];
            round.library = { ...lib, perSecond: mean(libRuns.map((x) => x.perSecond)), runs: libRuns };
            log(`firebase-admin alone: ${lib.perSecond.toFixed(0)}/s (${lib.failures} failed)`);
          });
        await capacities('before');
        await step(`${workers} worker(s): campaign to ${CONFIG.devices} devices`, async () => {
          await quiet();
          const since = new Date();
          const { value, cpu } = await withCpu(groups, machine.nproc, () =>
            campaignPhase(tenant, { devices: CONFIG.devices, sinkDir: apps.sinkDir, drainSec: CONFIG.drainSec, label: `${workers}w-${run}` }),
          );
          round.campaign = value;
          round.cpuCores = Object.fromEntries(Object.entries(cpu.cores).map(([g, c]) => [g, Math.round(c * 100) / 100]));
          round.machineCores = Math.round(cpu.machineCores * 100) / 100;
          round.cpuMsPerDevice = cpuPer(cpu, value.received);
          log(
            `campaign: ${value.received}/${value.devices} devices (${value.repeats} repeats) in ${value.timeToLastPushSec.toFixed(1)} s → ${value.devicesPerSec.toFixed(0)} devices/s; status ${value.finalStatus}`,
          );
          write();
          log('reading the campaign workflow histories');
          round.history = await campaignHistories(client, value.campaignId, { since, until: new Date() });
          const h = round.history;
          log(`histories: ${h.runs.length} run(s) of ${h.workflowId} (${h.runs.map((r) => r.events).join(', ')} events), ${h.children.length} child run(s); largest ${h.largest?.events ?? '?'}; largest in the window ${h.window?.largest?.events ?? '?'} (${h.window?.largest?.type ?? '?'})`);
        });
        await capacities('after');
      }
    }
    if (CONFIG.phases.includes('fire')) {
      const groups = cpuGroups();
      const workers = apps.workers.length;
      await step(`${workers} worker(s): event triggers: ${CONFIG.fireRate} fires/s for ${CONFIG.fireSec} s (delay 0)`, async () => {
        await createFireTrigger(tenant, run);
        await quiet();
        const { value, cpu } = await withCpu(groups, machine.nproc, () =>
          firePhase(tenant, { deviceIds, rate: CONFIG.fireRate, seconds: CONFIG.fireSec, sinkDir: apps.sinkDir, drainSec: CONFIG.fireDrainSec, tag: `f${run}` }),
        );
        results.fire = { ...value, workers, cpuMsPerFire: cpuPer(cpu, value.accepted) };
        log(
          `fires: ${value.accepted}/${value.fires} accepted at ${value.firesPerSec.toFixed(0)}/s (202 p99 ${value.api.p99.toFixed(0)} ms); ${value.reached} at the sink, fire → sink p50 ${value.fireToSink.p50.toFixed(0)} ms, p99 ${value.fireToSink.p99 === null ? `beyond ${CONFIG.fireDrainSec} s` : `${value.fireToSink.p99.toFixed(0)} ms`} (of those that arrived ${value.fireToSink.p99Arrived.toFixed(0)} ms)`,
        );
      });
      if (CONFIG.fireMaxSec > 0) await step(`fire capacity: ${CONFIG.fireMaxConnections} connections for ${CONFIG.fireMaxSec} s (closed loop, sends not followed)`, async () => {
        await quiet();
        const r: RunStats = await fireCapacity(tenant, { deviceIds, connections: CONFIG.fireMaxConnections, sec: CONFIG.fireMaxSec, tag: `max${run}` });
        results.fireCapacity = { ...r, workers: apps.workers.length };
        log(`fire capacity: ${r.rps.toFixed(0)}/s (p99 ${r.p99.toFixed(0)} ms; non-2xx ${r.non2xx}, errors ${r.errors})`);
      });
    }
  } catch (err) {
    results.errors.push(`set-up: ${(err as Error).stack ?? err}`);
    log(`FAILED set-up: ${(err as Error).message}`);
  } finally {
    await connection?.close().catch(() => {});
    console.log(write());
    await teardown();
  }
  return results.errors.length ? 1 : 0;
}

runGuarded(main, { label: 'bench:campaign', log, teardown, watchdogMs: WATCHDOG_MS });
