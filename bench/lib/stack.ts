// The self-contained stack of one bench run: its own Temporal dev server (SQLite in a
// temp dir), its own database `support_bench` (recreated, migrated), a Redis logical
// database of its own, the API, one ticketing worker, the peers and the in-process
// auth app. Only 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { httpOk, portOpen, startChild, waitFor, type Child } from './procs';
import { loadEnvFile as loadEnvFromFile } from '../../scripts/env-file';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal/search-attributes';

export const ROOT = resolve(__dirname, '..', '..');
export const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
export const PORTS = { temporal: 7260, temporalUi: 7261, temporalMetrics: 7262, api: 3900, bare: 3901, authApp: 3902, authOnly: 3903 };
export const BENCH_DB = 'support_bench';

/** .data/env (written by scripts/ensure.sh) fills what the environment does not say. */
/** .data/env under what the environment already says (scripts/env-file.ts). */
export function loadEnvFile(): void {
  loadEnvFromFile(join(ROOT, '.data', 'env'));
}

export interface Urls {
  adminDb: string;
  benchDb: string;
  redis: string;
  temporal: string;
}

/**
 * One bench's own corner of the machine, so that benches never touch each other's (or the
 * dev and test) data: its ports, its database (dropped and recreated each run), its Redis
 * logical database, and the prefix of its child processes' names and temp dirs.
 */
export interface StackSpec {
  /** what the "port in use" message calls the bench, e.g. `bench:push` */
  label: string;
  /** prefix of the children's names (`push-` → `push-temporal`, `push-migrate`) */
  prefix: string;
  ports: { temporal: number; temporalUi: number; temporalMetrics: number } & Record<string, number>;
  db: string;
  /** Redis logical database: dev 0, test 1, `npm run bench` 2, bench:webhooks 3, bench:push 4 */
  redisDb: number;
}

export const MAIN_STACK: StackSpec = { label: 'bench', prefix: '', ports: PORTS, db: BENCH_DB, redisDb: 2 };

/** The URLs of a stack: the admin database, the stack's own database, Redis db and Temporal. */
export function stackUrls(spec: StackSpec): Urls {
  const adminDb = process.env.DATABASE_URL ?? 'postgresql://support:support@127.0.0.1:54329/support';
  const u = new URL(adminDb);
  u.pathname = `/${spec.db}`;
  const r = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799/0');
  r.pathname = `/${spec.redisDb}`; // a logical database of its own: never the dev (0) or test (1) data
  return { adminDb, benchDb: u.toString(), redis: r.toString(), temporal: `127.0.0.1:${spec.ports.temporal}` };
}

export interface Machine {
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  postgres?: string;
  temporalCli?: string;
  os: string;
  /** 1-minute load average when the run started and when it ended: other work on the machine skews results */
  loadAvgStart: number;
  loadAvgEnd?: number;
}

export function machineInfo(): Machine {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1].trim();
  } catch {
    /* not Linux */
  }
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    /* keep os.cpus() */
  }
  let os: string = process.platform;
  try {
    os = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os;
  } catch {
    /* keep platform */
  }
  let cli: string | undefined;
  try {
    cli = execFileSync(temporalCli(), ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    /* informative only */
  }
  return {
    nproc,
    cpuModel: model,
    ...(cli ? { temporalCli: cli } : {}),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os,
    loadAvgStart: Math.round(loadavg()[0] * 100) / 100,
  };
}

export function temporalCli(): string {
  const cli = process.env.TEMPORAL_CLI_PATH || join(ROOT, '.tools', 'venv', 'bin', 'temporal');
  if (!existsSync(cli)) throw new Error(`Temporal CLI not found at ${cli}: run bash scripts/ensure.sh`);
  return cli;
}

export async function assertPortsFree(spec: StackSpec = MAIN_STACK): Promise<void> {
  for (const [name, port] of Object.entries(spec.ports)) {
    if (await portOpen(port)) throw new Error(`127.0.0.1:${port} (${name}) is in use: is another ${spec.label} running? Stop it first.`);
  }
}

/** Drops and recreates the stack's database (fresh data every run: reproducible), then migrates. */
export async function prepareDatabase(u: Urls, logDir: string, spec: StackSpec = MAIN_STACK): Promise<string> {
  const admin = new PgClient({ connectionString: u.adminDb });
  await admin.connect();
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  await admin.query(`DROP DATABASE IF EXISTS ${spec.db} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${spec.db}`);
  await admin.end();
  const m = startChild(`${spec.prefix}migrate`, TSX, ['db/migrate.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: u.benchDb }, logDir });
  await m.done;
  if (m.exitCode !== 0) throw new Error(`migrations failed (exit ${m.exitCode}); see ${m.logFile}`);
  return version;
}

/** The stack's Temporal dev server (SQLite in a temp dir); `extraArgs` for what-if experiments. */
export function startTemporal(logDir: string, spec: StackSpec = MAIN_STACK, extraArgs: string[] = []): { child: Child; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), `support-${spec.prefix || 'bench-'}`));
  const child = startChild(
    `${spec.prefix}temporal`,
    temporalCli(),
    [
      'server', 'start-dev', '--headless',
      '--ip', '127.0.0.1',
      '--port', String(spec.ports.temporal),
      '--http-port', String(spec.ports.temporalUi),
      '--metrics-port', String(spec.ports.temporalMetrics),
      '--db-filename', join(dir, 'bench.sqlite'),
      ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a}=Keyword`]),
      '--log-level', 'error',
      // the same SQLite settings as `npm start` (scripts/start.ts)
      '--sqlite-pragma', 'journal_mode=wal',
      '--sqlite-pragma', 'synchronous=normal',
      ...extraArgs,
    ],
    { cwd: ROOT, env: process.env, logDir },
  );
  return { child, dir };
}

export async function waitForTemporal(child: Child, spec: StackSpec = MAIN_STACK): Promise<void> {
  const cli = temporalCli();
  const healthy = () =>
    new Promise<boolean>((res) => {
      const p = spawn(cli, ['operator', 'cluster', 'health', '--address', `127.0.0.1:${spec.ports.temporal}`], { stdio: 'ignore' });
      p.on('exit', (code) => res(code === 0));
      p.on('error', () => res(false));
    });
  await waitFor('Temporal dev server', healthy, 60_000, child);
}

/**
 * A TypeScript entry point as a child process: through tsx, or, when `profileDir` is set,
 * `node --cpu-prof --import tsx` so the process writes a V8 CPU profile there when it
 * exits (main thread and worker threads alike; open it in Chrome DevTools).
 */
export function startScript(name: string, script: string[], opts: { env: NodeJS.ProcessEnv; logDir: string; profileDir?: string }): Child {
  const o = { cwd: ROOT, env: opts.env, logDir: opts.logDir };
  return opts.profileDir
    ? startChild(name, process.execPath, ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`, '--import', 'tsx', ...script], o)
    : startChild(name, TSX, script, o);
}

export function removeDir(dir: string | undefined): void {
  if (dir && dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
}

/** The environment of every app child: the bench's own database, Redis db and Temporal. */
export function appEnv(u: Urls): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: u.benchDb,
    REDIS_URL: u.redis,
    TEMPORAL_ADDRESS: u.temporal,
    TEMPORAL_NAMESPACE: 'default',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // the platform groups too (per token), so no limit caps a benchmark (contracts.md, "Benchmarks and limits")
    RATE_LIMITS: 'starter=1000000,growth=1000000,scale=1000000,platform-read=1000000,platform-write=1000000',
  };
  // nothing leaves the machine: no LLM triage endpoint, no SMTP
  for (const k of Object.keys(env)) if (k.startsWith('TRIAGE_OPENAI_') || k.startsWith('POSTMARK_') || k === 'SMTP_URL') delete env[k]; // no mail leaves the machine
  return env;
}

export interface Apps {
  api: Child;
  worker: Child;
  platformWorker: Child;
  noopWorker: Child;
  bare: Child;
  auth: Child;
}

export function startApps(u: Urls, logDir: string): Apps {
  const env = appEnv(u);
  const opts = { cwd: ROOT, env, logDir };
  return {
    api: startChild('api', TSX, ['api/server.ts'], { ...opts, env: { ...env, PORT: String(PORTS.api) } }),
    worker: startChild('worker-ticketing', TSX, ['workers/main.ts', 'ticketing'], opts),
    platformWorker: startChild('worker-platform', TSX, ['workers/main.ts', 'platform'], opts),
    noopWorker: startChild('peer-noop-worker', TSX, ['bench/peers/noop-workflow.ts', 'worker'], opts),
    bare: startChild('peer-bare-koa', TSX, ['bench/peers/bare-koa.ts'], { ...opts, env: { ...env, PORT: String(PORTS.bare) } }),
    // node --import tsx (not the tsx CLI) so the IPC channel reaches the script itself
    auth: startChild('auth-overhead', process.execPath, ['--import', 'tsx', 'bench/auth-overhead.ts'], {
      ...opts,
      env: { ...env, APP_PORT: String(PORTS.authApp), AUTH_PORT: String(PORTS.authOnly) },
      ipc: true,
    }),
  };
}

export async function waitForHttpApps(a: Apps): Promise<void> {
  await Promise.all([
    waitFor('API /v1/health', () => httpOk(`http://127.0.0.1:${PORTS.api}/v1/health`), 90_000, a.api),
    waitFor('bare-koa peer', () => portOpen(PORTS.bare), 60_000, a.bare),
    waitFor('auth-overhead app', () => httpOk(`http://127.0.0.1:${PORTS.authApp}/v1/health`), 90_000, a.auth),
  ]);
}

export function logDirFor(resultsDir: string): string {
  const dir = join(resultsDir, 'logs');
  mkdirSync(dir, { recursive: true });
  return dir;
}
