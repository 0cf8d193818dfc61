// `npm start`: one supervised foreground process for the whole system on one machine.
// Order: Temporal dev server (unless TEMPORAL_ADDRESS is set) → search attributes →
// migrations → API + one worker per task queue → demo credentials once the API is
// healthy. Every child's output is prefixed ([temporal], [api], [worker:ticketing] …).
// A child that dies is restarted with a backoff while the others keep serving; a crash
// loop (5 deaths within a minute) stops everything with exit code 1 (scripts/supervisor.ts).
// Ctrl-C / SIGTERM — at any moment, also during start-up — stops the workers and the
// API, then Temporal, and exits. scripts/ensure.sh runs first (package.json), writing .data/env.
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { TASK_QUEUES } from '../workers/registry';
import { printDemoCredentials } from './demo-credentials';
import { loadEnvFile } from './env-file';
import { createPrefixedOutput } from './prefixed-output';
import { stackEnvPath, writeStackEnv } from './stack-env';
import { Supervisor, type ChildSpec } from './supervisor';
import { clearLeftoverDevServer, removeRecord, writeRecord } from './temporal-leftover';
import { SEARCH_ATTRIBUTES } from '../lib/temporal/search-attributes';

const ROOT = resolve(__dirname, '..');

// ---- environment: .data/env fills in what process.env does not already say ----------
loadEnvFile(join(ROOT, '.data', 'env'));
// STATE_DIR: where the dev server's SQLite file, its record and the mail land (tests move it)
const STATE_DIR = resolve(process.env.START_STATE_DIR || join(ROOT, '.data'));
const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT || 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_UI_PORT || 8233);
const externalTemporal = Boolean(process.env.TEMPORAL_ADDRESS);
process.env.TEMPORAL_ADDRESS ??= `127.0.0.1:${TEMPORAL_PORT}`;
process.env.TEMPORAL_NAMESPACE ??= 'default';
process.env.PORT ??= '3000';
const TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
const NAMESPACE = process.env.TEMPORAL_NAMESPACE;
const API_PORT = Number(process.env.PORT);
const TEMPORAL_CLI = process.env.TEMPORAL_CLI_PATH || join(ROOT, '.tools', 'venv', 'bin', 'temporal');
const DEV_SERVER_RECORD = join(STATE_DIR, 'temporal-dev-server.json');

const names = ['start', 'temporal', 'migrate', 'api', 'admin', 'mail', 'push-sink', ...TASK_QUEUES.map((q) => `worker:${q}`)];
const { paint, say } = createPrefixedOutput(names);
const info = (msg: string) => say('start', msg);
const fail = (msg: string) => say('start', paint(31, msg), process.stderr);

// ---- the supervisor ---------------------------------------------------------------------
// node with tsx's loader directly (not the tsx wrapper): one process per child, which
// gets our SIGTERM itself.
const node = (name: string, script: string[], stopOrder = 0): ChildSpec => ({
  name, command: process.execPath, args: ['--import', 'tsx', ...script], cwd: ROOT, stopOrder,
});
let exitCode = 0;
const supervisor = new Supervisor({
  output: (name, line, stream) => {
    // The dev server complains about its own connections while it stops: drop that.
    if (supervisor.isStopping && name === 'temporal' && line.includes('level=WARN')) return;
    say(name, line, stream === 'stderr' ? process.stderr : process.stdout);
  },
  notice: (msg, level) => (level === 'error' ? fail(msg) : info(msg)),
  onGiveUp: () => void shutdown(1),
});

let stopping: Promise<never> | undefined;
function shutdown(code: number): Promise<never> {
  // Later calls (a second signal, a child dying meanwhile) join the first.
  stopping ??= (async () => {
    exitCode = code;
    info(code === 0 ? 'stopping…' : 'stopping after a failure…');
    await supervisor.stop();
    if (!externalTemporal) removeRecord(DEV_SERVER_RECORD);
    info('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}

// A Ctrl-C in a terminal can reach us twice at once (the terminal's and one relayed by a
// wrapper), so only a signal more than a second after the first means "kill everything now".
let firstSignalAt = 0;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    if (!firstSignalAt) firstSignalAt = Date.now();
    else if (Date.now() - firstSignalAt > 1000) {
      fail('second signal: killing everything now');
      supervisor.killAll();
      process.exit(130);
    }
    void shutdown(0);
  });
}
process.on('exit', () => supervisor.killAll());

// ---- helpers ----------------------------------------------------------------------------
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((res) => {
    const s = connect({ port, host });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
    s.once('timeout', () => (s.destroy(), res(false)));
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (supervisor.isStopping) return new Promise<never>(() => {}); // shutdown() exits the process
    if (await probe()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

/** A short CLI call, run through the supervisor so that a stop ends it too. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const { code, stdout } = await supervisor.runOnce({ name: 'temporal', command: TEMPORAL_CLI, args, cwd: ROOT }, true);
  return { code, out: stdout.join('\n') };
}

// ---- the steps --------------------------------------------------------------------------
// Idempotent: creates only the attributes the namespace lacks (a create of an existing
// one succeeds too, but makes the server log a warning).
async function ensureSearchAttributes() {
  const conn = ['--address', TEMPORAL_ADDRESS, '--namespace', NAMESPACE];
  const list = await cli(['operator', 'search-attribute', 'list', '-o', 'json', ...conn]);
  let have: Record<string, string> = {};
  try {
    have = JSON.parse(list.out).customAttributes ?? {};
  } catch {
    /* unknown: create them all */
  }
  const missing = SEARCH_ATTRIBUTES.filter((a) => !have[a]);
  if (!missing.length) return;
  const sa = await cli(['operator', 'search-attribute', 'create', ...missing.flatMap((a) => ['--name', a]), '--type', 'Keyword', ...conn]);
  if (sa.code !== 0 && !/already exists/i.test(sa.out)) throw new Error(`registering search attributes failed: ${sa.out.trim()}`);
  info(`registered search attributes: ${missing.join(', ')}`);
}

function devServerArgs(dbFile: string): string[] {
  // A new database gets the search attributes at start-up (usable at once); an existing
  // one has them already (the flag would only log "already exists"). Decided per (re)start.
  const fresh = !existsSync(dbFile);
  return [
    'server', 'start-dev',
    '--db-filename', dbFile,
    '--ui-port', String(TEMPORAL_UI_PORT),
    '--port', String(TEMPORAL_PORT),
    '--namespace', NAMESPACE,
    '--log-level', 'warn',
    // WAL with synchronous=normal: survives a crash of any process, only an OS crash
    // can lose the last transactions; about twice the workflow throughput of the default
    '--sqlite-pragma', 'journal_mode=wal',
    '--sqlite-pragma', 'synchronous=normal',
    ...(fresh ? SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a}=Keyword`]) : []),
  ];
}

async function startTemporal() {
  if (!existsSync(TEMPORAL_CLI)) throw new Error(`Temporal CLI not found at ${TEMPORAL_CLI}: run bash scripts/ensure.sh`);
  if (externalTemporal) {
    info(`using Temporal at ${TEMPORAL_ADDRESS} (TEMPORAL_ADDRESS is set)`);
  } else {
    mkdirSync(STATE_DIR, { recursive: true });
    await clearLeftoverDevServer(DEV_SERVER_RECORD, [TEMPORAL_PORT, TEMPORAL_UI_PORT], (p) => portOpen(p), info);
    const dbFile = join(STATE_DIR, 'temporal.sqlite');
    supervisor.supervise({
      name: 'temporal', command: TEMPORAL_CLI, args: () => devServerArgs(dbFile), cwd: ROOT, stopOrder: 1,
      onStart: (pid) => writeRecord(DEV_SERVER_RECORD, { pid, port: TEMPORAL_PORT, dbFile, startedAt: new Date().toISOString() }),
    });
  }
  const health = ['operator', 'cluster', 'health', '--address', TEMPORAL_ADDRESS];
  await waitFor(`Temporal at ${TEMPORAL_ADDRESS}`, async () => (await cli(health)).code === 0, 60_000);
  await ensureSearchAttributes();
  info(`Temporal ready at ${TEMPORAL_ADDRESS}${externalTemporal ? '' : `, Web UI http://localhost:${TEMPORAL_UI_PORT}`}`);
}

async function apiHealthy(): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${API_PORT}/v1/health`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function bootstrap() {
  const { code, stdout } = await supervisor.runOnce(node('admin', ['scripts/admin.ts', 'bootstrap']), true);
  if (code !== 0) {
    for (const line of stdout) say('admin', line);
    fail(`admin bootstrap failed (exit ${code}); the services keep running`);
    return;
  }
  printDemoCredentials(stdout.join('\n').trim(), { paint, production: process.env.NODE_ENV === 'production' });
  console.log(`API: http://localhost:${API_PORT}   Temporal: ${TEMPORAL_ADDRESS}`);
}

async function main() {
  info(`root ${ROOT}`);
  if ((await portOpen(API_PORT)) || (await portOpen(API_PORT, '::1'))) {
    throw new Error(`port ${API_PORT} is already in use (another npm start?): stop it or set PORT`);
  }
  await startTemporal();
  const migrate = await supervisor.runOnce(node('migrate', ['db/migrate.ts']));
  if (migrate.code !== 0) throw new Error(`migrations failed (exit ${migrate.code})`);
  if (!process.env.SMTP_URL) {
    // no mail server configured: a local one that keeps every message in .data/mail/
    process.env.MAIL_SINK_DIR ??= join(STATE_DIR, 'mail');
    process.env.MAIL_SINK_PORT ??= '2525';
    process.env.SMTP_URL = `smtp://127.0.0.1:${process.env.MAIL_SINK_PORT}`;
    supervisor.supervise(node('mail', ['scripts/mail-sink.ts']));
  }
  if (!process.env.FCM_ENDPOINT || !process.env.APNS_ENDPOINT) {
    // no real FCM / APNs configured: the local sink (FCM HTTP v1 + APNs over h2c) keeps
    // every push in .data/push/{fcm,apns}.jsonl; the workers inherit the endpoints. It
    // trusts the demo credentials and every key uploaded to this stack's database (migrated
    // above), so a user's own service account or .p8 works locally too
    process.env.PUSH_SINK_DIR ??= join(STATE_DIR, 'push');
    process.env.PUSH_SINK_PORT ??= '4010';
    const sinkUrl = `http://127.0.0.1:${process.env.PUSH_SINK_PORT}`;
    process.env.FCM_ENDPOINT ||= sinkUrl;
    process.env.APNS_ENDPOINT ||= sinkUrl;
    supervisor.supervise(node('push-sink', ['scripts/push-sink.ts']));
    await waitFor(`the push sink on ${sinkUrl}`, () => portOpen(Number(process.env.PUSH_SINK_PORT)), 30_000);
  }
  // an extra `npm run worker -- <queue>` joins with these (scripts/stack-env.ts)
  writeStackEnv(stackEnvPath(ROOT));
  supervisor.supervise(node('api', ['api/server.ts']));
  for (const q of TASK_QUEUES) supervisor.supervise(node(`worker:${q}`, ['workers/main.ts', q]));
  await waitFor(`the API on :${API_PORT}/v1/health`, apiHealthy, 120_000);
  info(`API ready on http://localhost:${API_PORT}; workers: ${TASK_QUEUES.join(', ')}`);
  await bootstrap();
  info('running; Ctrl-C stops everything');
}

main().catch((err: Error) => {
  if (supervisor.isStopping) return;
  fail(err.message);
  void shutdown(1);
});
