// `npm run bench`: a self-contained benchmark run (docs/benchmarks.md). Starts its own
// Temporal dev server, database, API, workers and peers; seeds; runs the five scenarios
// next to their peers; writes bench/results/latest.{json,md}; tears everything down,
// also on error and Ctrl-C. BENCH_PROFILE=quick for a short smoke run.
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { accessToken, cursorOfPage, seedAll } from './lib/data';
import { runGuarded } from './lib/run-guard';
import { sleep, stopAll, waitFor, type Child } from './lib/procs';
import {
  assertPortsFree,
  loadEnvFile,
  logDirFor,
  machineInfo,
  PORTS,
  prepareDatabase,
  removeDir,
  ROOT,
  startApps,
  startTemporal,
  stackUrls,
  MAIN_STACK,
  waitForHttpApps,
  waitForTemporal,
} from './lib/stack';
import { connectClient, noopOnce } from './peers/noop-workflow';
import { scenarioPlatform, seedPlatform } from './platform';
import { checkTargets, toMarkdown, type Results } from './report';
import { profileFromEnv, scenarioAuth, scenarioCreate, scenarioReads, scenarioSearch, type Ctx } from './scenarios';
import { resultsWriter } from './lib/results';

const RESULTS = join(ROOT, 'bench', 'results');
const WATCHDOG_MS = 20 * 60_000; // a run that hangs is stopped, whatever it waits for
const t0 = Date.now();
const log = (line: string) => console.log(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s] ${line}`);

let temporalDir: string | undefined;
let tearingDown: Promise<void> | null = null;
function teardown(): Promise<void> {
  // apps and peers first, Temporal last
  return (tearingDown ??= stopAll(5000, (c: Child) => (c.name === 'temporal' ? 1 : 0)).then(() => removeDir(temporalDir)));
}

/** The first ticket through the API proves the worker (and the whole create path) is up. */
async function firstTicket(api: string, token: string, workspaceId: string, playerId: string, worker: Child): Promise<void> {
  await waitFor(
    'first ticket through the ticketing worker',
    async () => {
      const res = await fetch(`${api}/v1/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ workspaceId, playerId, title: 'Bench warm-up', body: 'The first ticket of the run.' }),
        signal: AbortSignal.timeout(15_000),
      });
      return res.status === 201;
    },
    120_000,
    worker,
  );
}

async function main() {
  loadEnvFile();
  const profile = profileFromEnv(process.env);
  const profileName = profile.name;

  mkdirSync(RESULTS, { recursive: true });
  const logDir = logDirFor(RESULTS);
  const u = stackUrls(MAIN_STACK);
  const machine = machineInfo();
  log(`machine: ${machine.nproc} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; profile ${profileName}; logs in ${logDir}`);
  await assertPortsFree();

  const results: Results = {
    startedAt: new Date(t0).toISOString(),
    wallSeconds: 0,
    profile,
    machine,
    seed: { ms: 0, searchTickets: 0, listTickets: 0 },
    errors: [],
  };
  const write = resultsWriter({ dir: RESULTS, name: 'latest', t0, machine, results, checkTargets, toMarkdown });

  // Temporal boots while the database is prepared and seeded.
  log('starting Temporal dev server, recreating database support_bench');
  const temporal = startTemporal(logDir);
  temporalDir = temporal.dir;
  machine.postgres = await prepareDatabase(u, logDir);
  const pool = new Pool({ connectionString: u.benchDb, max: 4 });
  log('seeding (fixed seeds): 100k search tickets, 10k list tickets, players, agents, messages');
  const data = await seedAll(pool, u.benchDb, Date.now());
  const platformData = await seedPlatform(pool, u.benchDb, Date.now());
  results.seed = { ms: data.seedMs, searchTickets: data.search.tickets, listTickets: data.list.tickets };
  log(`seeded in ${(data.seedMs / 1000).toFixed(1)} s`);
  await waitForTemporal(temporal.child);
  log('Temporal ready; starting API, ticketing worker, peers, auth-overhead app');
  const apps = startApps(u, logDir);
  const api = `http://127.0.0.1:${PORTS.api}`;
  await waitForHttpApps(apps);
  const token = await accessToken(api, data.create);
  const p = data.create.players[0].playerId;
  const t = await connectClient(u.temporal);
  try {
    await firstTicket(api, token, data.create.workspaceId, p, apps.worker);
    await waitFor('no-op peer worker', async () => (await Promise.race([noopOnce(t.client, 0).then(() => true), sleep(10_000).then(() => false)])), 60_000, apps.noopWorker);
    log('stack up');

    const readToken = await accessToken(api, data.list);
    const searchToken = await accessToken(api, data.search);
    const ctx: Ctx = {
      api,
      bare: `http://127.0.0.1:${PORTS.bare}`,
      authApp: `http://127.0.0.1:${PORTS.authApp}`,
      authOnly: `http://127.0.0.1:${PORTS.authOnly}`,
      data,
      token,
      pool,
      temporal: t.client,
      authChild: apps.auth,
      profile,
      log,
    };
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
      const load = Math.round(loadavg()[0] * 100) / 100;
      (results.loadAvgAtScenario ??= {})[name] = load;
      log(`scenario: ${name} (1-min load average ${load})`);
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
    // reads first, on a quiet worker; create last (it leaves thousands of running workflows)
    results.reads = await step('2. get by id + list vs bare Koa', async () => {
      const cursor = await cursorOfPage(api, readToken, data.list.workspaceId, 100);
      return scenarioReads({ ...ctx, token: readToken }, cursor);
    });
    results.search = await step('3. full-text search over 100k tickets', () => scenarioSearch({ ...ctx, token: searchToken }));
    results.auth = await step('4. auth + rate-limit overhead', async () => {
      const jwt = await accessToken(ctx.authApp, data.list);
      return scenarioAuth(ctx, jwt, data.list.key);
    });
    results.create = await step('1. ticket create vs no-op workflow', () => scenarioCreate(ctx));
    results.platform = await step('5. platform tickets: get, list, create vs bare Koa and no-op workflow', () => scenarioPlatform(ctx, platformData));
  } finally {
    await t.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
  }
  const md = write();
  console.log('\n' + md);
  log(`wrote ${join('bench', 'results', 'latest.md')} and latest.json`);
  return results.errors!.length ? 1 : 0;
}

runGuarded(main, { label: 'bench', log, teardown, watchdogMs: WATCHDOG_MS });
