// The self-contained stack of one `npm run bench:push` run, beside the other benchmarks'
// (never instead of them): its own ports, Temporal dev server (SQLite in a temp dir),
// database `support_bench_push` (recreated, migrated), Redis logical database 4, and as
// child processes the API, one `push` worker, the local push sink and the bare
// register peer. Only 127.0.0.1.
import { mkdtempSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { appEnv, ROOT, temporalCli, TSX, type Urls } from '../lib/stack';
import { httpOk, portOpen, startChild, waitFor, type Child } from '../lib/procs';

export const PUSH_PORTS = { temporal: 7290, temporalUi: 7291, temporalMetrics: 7292, api: 3930, peer: 3931, sink: 3932 };
export const PUSH_DB = 'support_bench_push';

export function pushUrls(): Urls {
  const adminDb = process.env.DATABASE_URL ?? 'postgresql://support:support@127.0.0.1:54329/support';
  const u = new URL(adminDb);
  u.pathname = `/${PUSH_DB}`;
  const r = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799/0');
  r.pathname = '/4'; // not the dev (0), test (1), `npm run bench` (2) or bench:webhooks (3) data
  return { adminDb, benchDb: u.toString(), redis: r.toString(), temporal: `127.0.0.1:${PUSH_PORTS.temporal}` };
}

export async function assertPortsFree(): Promise<void> {
  for (const [name, port] of Object.entries(PUSH_PORTS)) {
    if (await portOpen(port)) throw new Error(`127.0.0.1:${port} (${name}) is in use: is another bench:push running? Stop it first.`);
  }
}

/** Drops and recreates support_bench_push, then migrates: every run starts empty. */
export async function prepareDatabase(u: Urls, logDir: string): Promise<string> {
  const admin = new PgClient({ connectionString: u.adminDb });
  await admin.connect();
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  await admin.query(`DROP DATABASE IF EXISTS ${PUSH_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${PUSH_DB}`);
  await admin.end();
  const m = startChild('push-migrate', TSX, ['db/migrate.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: u.benchDb }, logDir });
  await m.done;
  if (m.exitCode !== 0) throw new Error(`migrations failed (exit ${m.exitCode}); see ${m.logFile}`);
  return version;
}

export function startTemporal(logDir: string): { child: Child; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'support-bench-push-'));
  const child = startChild(
    'push-temporal',
    temporalCli(),
    [
      'server', 'start-dev', '--headless',
      '--ip', '127.0.0.1',
      '--port', String(PUSH_PORTS.temporal),
      '--http-port', String(PUSH_PORTS.temporalUi),
      '--metrics-port', String(PUSH_PORTS.temporalMetrics),
      '--db-filename', join(dir, 'bench.sqlite'),
      ...['WorkspaceId', 'TicketStatus', 'TicketPriority'].flatMap((a) => ['--search-attribute', `${a}=Keyword`]),
      '--log-level', 'error',
      '--sqlite-pragma', 'journal_mode=wal',
      '--sqlite-pragma', 'synchronous=normal',
    ],
    { cwd: ROOT, env: process.env, logDir },
  );
  return { child, dir };
}

export async function waitForTemporal(child: Child): Promise<void> {
  const healthy = () =>
    new Promise<boolean>((res) => {
      const p = spawn(temporalCli(), ['operator', 'cluster', 'health', '--address', `127.0.0.1:${PUSH_PORTS.temporal}`], { stdio: 'ignore' });
      p.on('exit', (code) => res(code === 0));
      p.on('error', () => res(false));
    });
  await waitFor('Temporal dev server', healthy, 60_000, child);
}

/** The limit groups of the push API lifted (contracts.md: one documented override for benchmarks). */
const NO_LIMITS = ['push-auth-ip', 'push-token', 'push-anonymous-ip', 'push-devices-register', 'push-event-fire', 'push-notifications-send']
  .map((g) => `${g}=100000000`)
  .join(',');

export interface PushApps {
  api: Child;
  worker: Child;
  sink: Child;
  peer: Child;
  sinkDir: string;
  sinkUrl: string;
}

export function startApps(u: Urls, logDir: string): PushApps {
  const sinkUrl = `http://127.0.0.1:${PUSH_PORTS.sink}`;
  const sinkDir = mkdtempSync(join(tmpdir(), 'support-bench-push-sink-'));
  const env = { ...appEnv(u), RATE_LIMITS: NO_LIMITS, FCM_ENDPOINT: sinkUrl, APNS_ENDPOINT: sinkUrl };
  const opts = { cwd: ROOT, env, logDir };
  return {
    sinkDir,
    sinkUrl,
    sink: startChild('push-sink', TSX, ['scripts/push-sink.ts'], { ...opts, env: { ...env, PUSH_SINK_PORT: String(PUSH_PORTS.sink), PUSH_SINK_DIR: sinkDir } }),
    api: startChild('push-api', TSX, ['api/server.ts'], { ...opts, env: { ...env, PORT: String(PUSH_PORTS.api), HOST: '127.0.0.1' } }),
    // LOG_LEVEL=info only for the 'worker started' line the readiness wait looks for
    worker: startChild('push-worker', TSX, ['workers/main.ts', 'push'], { ...opts, env: { ...env, LOG_LEVEL: 'info' } }),
    peer: startChild('push-register-peer', TSX, ['bench/push/register-peer.ts'], { ...opts, env: { ...env, PORT: String(PUSH_PORTS.peer) } }),
  };
}

export async function waitForApps(a: PushApps): Promise<void> {
  const logged = (c: Child, text: string) => async () => readFileSync(c.logFile, 'utf8').includes(text);
  await Promise.all([
    waitFor('API /api/v1/health', () => httpOk(`http://127.0.0.1:${PUSH_PORTS.api}/api/v1/health`), 90_000, a.api),
    waitFor('push worker', logged(a.worker, 'worker started'), 120_000, a.worker),
    waitFor('push sink', () => portOpen(PUSH_PORTS.sink), 60_000, a.sink),
    waitFor('register peer', () => portOpen(PUSH_PORTS.peer), 60_000, a.peer),
  ]);
}
