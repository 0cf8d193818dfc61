// `npm start`: one supervised foreground process for the whole system on one machine.
// Order: Temporal dev server (unless TEMPORAL_ADDRESS is set) → search attributes →
// migrations → API + one worker per task queue → demo credentials once the API is
// healthy. Every child's output is prefixed ([temporal], [api], [worker:ticketing] …).
// Ctrl-C / SIGTERM stops the workers and the API, then Temporal, and exits; a child
// that dies on its own brings everything down with a non-zero exit.
// scripts/ensure.sh runs first (see package.json) and writes .data/env.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadEnvFile } from './env-file';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { TASK_QUEUES } from '../workers/registry';
import { createPrefixedOutput } from './prefixed-output';

const ROOT = resolve(__dirname, '..');
const DATA = join(ROOT, '.data');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const SEARCH_ATTRIBUTES = ['WorkspaceId', 'TicketStatus', 'TicketPriority']; // all Keyword
const TEMPORAL_PORT = 7233;
const TEMPORAL_UI_PORT = 8233;

// ---- environment: .data/env fills in what process.env does not already say ----------
loadEnvFile(join(DATA, 'env'));
const externalTemporal = Boolean(process.env.TEMPORAL_ADDRESS);
process.env.TEMPORAL_ADDRESS ??= `127.0.0.1:${TEMPORAL_PORT}`;
process.env.TEMPORAL_NAMESPACE ??= 'default';
process.env.PORT ??= '3000';
const TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
const NAMESPACE = process.env.TEMPORAL_NAMESPACE;
const API_PORT = Number(process.env.PORT);
const TEMPORAL_CLI = process.env.TEMPORAL_CLI_PATH || join(ROOT, '.tools', 'venv', 'bin', 'temporal');

const names = ['start', 'temporal', 'migrate', 'api', 'admin', 'mail', ...TASK_QUEUES.map((q) => `worker:${q}`)];
const { paint, say } = createPrefixedOutput(names);
const info = (msg: string) => say('start', msg);
const fail = (msg: string) => say('start', paint(31, msg), process.stderr);

// ---- children -------------------------------------------------------------------------
interface Child {
  name: string;
  proc: ChildProcess;
  done: Promise<number>;
  longRunning: boolean;
  exited: boolean;
}
const children: Child[] = [];
let shuttingDown = false;

function run(name: string, cmd: string, args: string[], opts: { longRunning: boolean; captureStdout?: string[] }): Child {
  // detached: own process group, so Ctrl-C reaches only us and we stop children in order.
  const proc = spawn(cmd, args, { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const child: Child = { name, proc, longRunning: opts.longRunning, exited: false, done: Promise.resolve(0) };
  const pipe = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream, capture?: string[]) => {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => {
      if (capture) capture.push(line);
      // The dev server complains about its own connections while it stops: drop that.
      else if (!(shuttingDown && name === 'temporal' && line.includes('level=WARN'))) say(name, line, out);
    });
  };
  pipe(proc.stdout, process.stdout, opts.captureStdout);
  pipe(proc.stderr, process.stderr);
  child.done = new Promise((res) => {
    proc.on('error', (err) => {
      fail(`${name}: ${err.message}`);
      child.exited = true;
      res(127);
    });
    proc.on('exit', (code, signal) => {
      child.exited = true;
      const status = code ?? (signal ? 128 : 1);
      if (child.longRunning && !shuttingDown) {
        fail(`${name} exited unexpectedly (${signal ?? `code ${code}`}); shutting everything down`);
        void shutdown(1);
      }
      res(status);
    });
  });
  children.push(child);
  return child;
}

function signalGroup(c: Child, sig: NodeJS.Signals) {
  if (!c.proc.pid) return;
  try {
    process.kill(-c.proc.pid, sig);
  } catch {
    /* already gone */
  }
}

async function stop(group: Child[], graceMs: number) {
  const alive = group.filter((c) => !c.exited);
  for (const c of alive) if (c.proc.pid) c.proc.kill('SIGTERM'); // tsx relays it to its node child
  const timer = new Promise((r) => setTimeout(r, graceMs).unref());
  await Promise.race([Promise.all(alive.map((c) => c.done)), timer]);
  for (const c of group) signalGroup(c, 'SIGKILL'); // stragglers and grandchildren
}

let stopping: Promise<never> | undefined;
function shutdown(code: number): Promise<never> {
  // Later calls (the same Ctrl-C relayed by tsx, a child dying meanwhile) join the first.
  stopping ??= (async () => {
    shuttingDown = true;
    info(code === 0 ? 'stopping…' : 'stopping after a failure…');
    const temporal = children.filter((c) => c.name === 'temporal');
    await stop(children.filter((c) => c.name !== 'temporal'), 10_000);
    await stop(temporal, 10_000);
    info('stopped');
    process.exit(code);
  })();
  return stopping;
}

// Ctrl-C reaches us twice (from the terminal and relayed by tsx's parent process), so
// only a signal more than a second after the first one means "kill everything now".
let firstSignalAt = 0;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    if (!firstSignalAt) firstSignalAt = Date.now();
    else if (Date.now() - firstSignalAt > 1000) {
      fail('second signal: killing everything now');
      for (const c of children) signalGroup(c, 'SIGKILL');
      process.exit(130);
    }
    void shutdown(0);
  });
}
process.on('exit', () => {
  for (const c of children) if (!c.exited) signalGroup(c, 'SIGKILL');
});

// ---- helpers ----------------------------------------------------------------------------
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function capture(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((res) => {
    const p = spawn(cmd, args, { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('error', (e) => res({ code: 127, out: String(e) }));
    p.on('exit', (code) => res({ code: code ?? 1, out }));
  });
}

function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((res) => {
    const s = connect({ port, host });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
    s.once('timeout', () => (s.destroy(), res(false)));
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, watch?: Child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (shuttingDown) return new Promise<never>(() => {}); // shutdown() exits the process
    if (watch?.exited) throw new Error(`${watch.name} exited while waiting for ${what}`);
    if (await probe()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

// ---- the steps --------------------------------------------------------------------------
// Idempotent: creates only the attributes the namespace lacks (a create of an existing
// one succeeds too, but makes the server log a warning).
async function ensureSearchAttributes() {
  const conn = ['--address', TEMPORAL_ADDRESS, '--namespace', NAMESPACE];
  const list = await capture(TEMPORAL_CLI, ['operator', 'search-attribute', 'list', '-o', 'json', ...conn]);
  let have: Record<string, string> = {};
  try {
    have = JSON.parse(list.out).customAttributes ?? {};
  } catch {
    /* unknown: create them all */
  }
  const missing = SEARCH_ATTRIBUTES.filter((a) => !have[a]);
  if (!missing.length) return;
  const sa = await capture(TEMPORAL_CLI, [
    'operator', 'search-attribute', 'create',
    ...missing.flatMap((a) => ['--name', a]),
    '--type', 'Keyword',
    ...conn,
  ]);
  if (sa.code !== 0 && !/already exists/i.test(sa.out)) {
    throw new Error(`registering search attributes failed: ${sa.out.trim()}`);
  }
  info(`registered search attributes: ${missing.join(', ')}`);
}

async function startTemporal() {
  if (!existsSync(TEMPORAL_CLI)) throw new Error(`Temporal CLI not found at ${TEMPORAL_CLI}: run bash scripts/ensure.sh`);
  let server: Child | undefined;
  if (externalTemporal) {
    info(`using Temporal at ${TEMPORAL_ADDRESS} (TEMPORAL_ADDRESS is set)`);
  } else if (await portOpen(TEMPORAL_PORT)) {
    info(`something already listens on 127.0.0.1:${TEMPORAL_PORT}; using it as Temporal`);
  } else {
    mkdirSync(DATA, { recursive: true });
    const dbFile = join(DATA, 'temporal.sqlite');
    // A new database gets the search attributes at start-up (usable at once); an existing
    // one has them already (the flag would only log "already exists").
    const fresh = !existsSync(dbFile);
    server = run(
      'temporal',
      TEMPORAL_CLI,
      [
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
      ],
      { longRunning: true },
    );
  }
  const health = ['operator', 'cluster', 'health', '--address', TEMPORAL_ADDRESS];
  await waitFor(`Temporal at ${TEMPORAL_ADDRESS}`, async () => (await capture(TEMPORAL_CLI, health)).code === 0, 60_000, server);
  await ensureSearchAttributes();
  info(`Temporal ready at ${TEMPORAL_ADDRESS}${server ? `, Web UI http://localhost:${TEMPORAL_UI_PORT}` : ''}`);
}

async function migrate() {
  const m = run('migrate', TSX, ['db/migrate.ts'], { longRunning: false });
  const code = await m.done;
  if (code !== 0) throw new Error(`migrations failed (exit ${code})`);
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
  const out: string[] = [];
  const admin = run('admin', TSX, ['scripts/admin.ts', 'bootstrap'], { longRunning: false, captureStdout: out });
  const code = await admin.done;
  if (code !== 0) {
    for (const line of out) say('admin', line);
    fail(`admin bootstrap failed (exit ${code}); the services keep running`);
    return;
  }
  const text = out.join('\n').trim();
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    /* print as is */
  }
  const bar = '═'.repeat(60);
  console.log(`\n${paint(1, bar)}\n${paint(1, 'Demo credentials:')}\n${paint(32, pretty)}`);
  console.log(`API: http://localhost:${API_PORT}   Temporal: ${TEMPORAL_ADDRESS}`);
  console.log(`${paint(1, bar)}\n`);
}

async function main() {
  info(`root ${ROOT}`);
  if ((await portOpen(API_PORT)) || (await portOpen(API_PORT, '::1'))) {
    throw new Error(`port ${API_PORT} is already in use (another npm start?): stop it or set PORT`);
  }
  await startTemporal();
  await migrate();
  if (!process.env.SMTP_URL) {
    // no mail server configured: a local one that keeps every message in .data/mail/
    process.env.MAIL_SINK_DIR ??= join(ROOT, '.data', 'mail');
    process.env.MAIL_SINK_PORT ??= '2525';
    process.env.SMTP_URL = `smtp://127.0.0.1:${process.env.MAIL_SINK_PORT}`;
    run('mail', TSX, ['scripts/mail-sink.ts'], { longRunning: true });
  }
  const api = run('api', TSX, ['api/server.ts'], { longRunning: true });
  for (const q of TASK_QUEUES) run(`worker:${q}`, TSX, ['workers/main.ts', q], { longRunning: true });
  await waitFor(`the API on :${API_PORT}/v1/health`, apiHealthy, 120_000, api);
  info(`API ready on http://localhost:${API_PORT}; workers: ${TASK_QUEUES.join(', ')}`);
  await bootstrap();
  info('running; Ctrl-C stops everything');
}

main().catch((err: Error) => {
  if (shuttingDown) return;
  fail(err.message);
  void shutdown(1);
});
