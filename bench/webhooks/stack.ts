// The self-contained stack of one `npm run bench:webhooks` run, beside (never instead
// of) `npm run bench`'s: its own ports, its own Temporal dev server (SQLite in a temp
// dir, the same pragmas as `npm start`), its own database `support_bench_webhooks`
// (recreated, migrated), Redis logical database 3, and as real child processes the API,
// one `webhooks` worker (which runs the outbox dispatcher) and the Temporal peer's
// worker. Only 127.0.0.1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { appEnv, ROOT, temporalCli, TSX, type Urls } from '../lib/stack';
import { httpOk, portOpen, startChild, waitFor, type Child } from '../lib/procs';

export const WH_PORTS = { temporal: 7280, temporalUi: 7281, temporalMetrics: 7282, api: 3920, receiver: 3921 };
export const WH_DB = 'support_bench_webhooks';

export function whUrls(): Urls {
  const adminDb = process.env.DATABASE_URL ?? 'postgresql://support:support@127.0.0.1:54329/support';
  const u = new URL(adminDb);
  u.pathname = `/${WH_DB}`;
  const r = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799/0');
  r.pathname = '/3'; // not the dev (0), test (1) or `npm run bench` (2) data
  return { adminDb, benchDb: u.toString(), redis: r.toString(), temporal: `127.0.0.1:${WH_PORTS.temporal}` };
}

export async function assertPortsFree(): Promise<void> {
  for (const [name, port] of Object.entries(WH_PORTS)) {
    if (await portOpen(port)) throw new Error(`127.0.0.1:${port} (${name}) is in use: is another bench:webhooks running? Stop it first.`);
  }
}

/** Drops and recreates support_bench_webhooks, then migrates: every run starts empty. */
export async function prepareDatabase(u: Urls, logDir: string): Promise<string> {
  const admin = new PgClient({ connectionString: u.adminDb });
  await admin.connect();
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  await admin.query(`DROP DATABASE IF EXISTS ${WH_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${WH_DB}`);
  await admin.end();
  const m = startChild('wh-migrate', TSX, ['db/migrate.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: u.benchDb }, logDir });
  await m.done;
  if (m.exitCode !== 0) throw new Error(`migrations failed (exit ${m.exitCode}); see ${m.logFile}`);
  return version;
}

export function startTemporal(logDir: string): { child: Child; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'support-bench-webhooks-'));
  const child = startChild(
    'wh-temporal',
    temporalCli(),
    [
      'server', 'start-dev', '--headless',
      '--ip', '127.0.0.1',
      '--port', String(WH_PORTS.temporal),
      '--http-port', String(WH_PORTS.temporalUi),
      '--metrics-port', String(WH_PORTS.temporalMetrics),
      '--db-filename', join(dir, 'bench.sqlite'),
      ...['WorkspaceId', 'TicketStatus', 'TicketPriority'].flatMap((a) => ['--search-attribute', `${a}=Keyword`]),
      '--log-level', 'error',
      // the same SQLite settings as `npm start`, `npm test` and `npm run bench`
      '--sqlite-pragma', 'journal_mode=wal',
      '--sqlite-pragma', 'synchronous=normal',
      // what-if experiments only, e.g. '--dynamic-config-value matching.numTaskqueueReadPartitions=1'
      ...(process.env.BENCH_WEBHOOK_TEMPORAL_ARGS ?? '').split(/\s+/).filter(Boolean),
    ],
    { cwd: ROOT, env: process.env, logDir },
  );
  return { child, dir };
}

export async function waitForTemporal(child: Child): Promise<void> {
  const { spawn } = await import('node:child_process');
  const cli = temporalCli();
  const healthy = () =>
    new Promise<boolean>((res) => {
      const p = spawn(cli, ['operator', 'cluster', 'health', '--address', `127.0.0.1:${WH_PORTS.temporal}`], { stdio: 'ignore' });
      p.on('exit', (code) => res(code === 0));
      p.on('error', () => res(false));
    });
  await waitFor('Temporal dev server', healthy, 60_000, child);
}

export interface WhApps {
  api: Child;
  /** one `webhooks` worker process, or BENCH_WEBHOOK_WORKERS of them (each with its dispatcher) */
  workers: Child[];
  peerWorker: Child;
}

/** The environment of the API and the worker: the bench's database, Redis db, Temporal; loopback receivers allowed. */
export function whEnv(u: Urls): NodeJS.ProcessEnv {
  return { ...appEnv(u), WEBHOOK_ALLOW_LOOPBACK: '1' };
}

/** BENCH_WEBHOOK_WORKERS: how many `webhooks` worker processes (default 1, as `npm start` runs) */
export function workerCount(): number {
  return Math.max(1, Math.floor(Number(process.env.BENCH_WEBHOOK_WORKERS) || 1));
}

export function startApps(u: Urls, logDir: string): WhApps {
  const env = whEnv(u);
  const opts = { cwd: ROOT, env, logDir };
  return {
    api: startChild('wh-api', TSX, ['api/server.ts'], { ...opts, env: { ...env, PORT: String(WH_PORTS.api), HOST: '127.0.0.1' } }),
    // LOG_LEVEL=info only for the 'worker started' line the readiness wait looks for;
    // BENCH_WEBHOOK_WORKER_OPTIONS: the what-if worker (bench/webhooks/whatif-worker.ts) instead
    workers: Array.from({ length: workerCount() }, (_, i) => {
      const script = process.env.BENCH_WEBHOOK_WORKER_OPTIONS ? ['bench/webhooks/whatif-worker.ts'] : ['workers/main.ts', 'webhooks'];
      const name = `wh-worker-webhooks${i ? `-${i + 1}` : ''}`;
      const workerOpts = { ...opts, env: { ...env, LOG_LEVEL: 'info' } };
      // BENCH_WEBHOOK_PROFILE_DIR: a V8 CPU profile of each worker process (main thread and
      // workflow threads), written there when the worker stops
      const prof = process.env.BENCH_WEBHOOK_PROFILE_DIR;
      return prof
        ? startChild(name, process.execPath, ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--import', 'tsx', ...script], workerOpts)
        : startChild(name, TSX, script, workerOpts);
    }),
    peerWorker: startChild('wh-peer-temporal-worker', TSX, ['bench/webhooks/temporal-peer.ts', 'worker'], opts),
  };
}

export async function waitForApps(a: WhApps): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const logged = (c: Child, text: string) => async () => readFileSync(c.logFile, 'utf8').includes(text);
  await Promise.all([
    waitFor('API /v1/health', () => httpOk(`http://127.0.0.1:${WH_PORTS.api}/v1/health`), 90_000, a.api),
    ...a.workers.map((w) => waitFor(w.name, logged(w, 'worker started'), 120_000, w)),
    waitFor('Temporal peer worker', logged(a.peerWorker, 'peer worker started'), 120_000, a.peerWorker),
  ]);
}
