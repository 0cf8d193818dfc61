// The fault test's own dependencies, each one it may kill and start again without
// touching the shared test cluster, Redis or Temporal server other test files use:
// a PostgreSQL cluster (pg_ctl stop -m immediate), a Redis and a Temporal dev server
// (SIGKILL), and worker processes (SIGKILL). All on 127.0.0.1.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { eventually } from './eventually';

const ROOT = resolve(__dirname, '../..');
const isRoot = process.getuid?.() === 0;

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const listening = (port: number) =>
  new Promise<boolean>((r) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), r(true)));
    c.once('error', () => r(false));
  });

export async function waitForPort(port: number, timeoutMs = 60_000): Promise<void> {
  await eventually(() => listening(port), { timeoutMs, what: `something listening on 127.0.0.1:${port}` });
}

/** A process the test may SIGKILL and start again with the same command. */
export class Restartable {
  private child?: ChildProcess;
  private out = '';
  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly opts: { env?: NodeJS.ProcessEnv; ready: { port?: number; line?: string } },
  ) {}

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.out.slice(-4000);
  }

  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(this.command, this.args, { cwd: ROOT, env: { ...process.env, ...this.opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const seen = new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`${this.name} not ready:\n${this.output()}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        this.out += chunk.toString();
        if (this.opts.ready.line && this.out.includes(this.opts.ready.line)) (clearTimeout(timer), res());
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => (clearTimeout(timer), rej(new Error(`${this.name} exited (${code ?? signal}):\n${this.output()}`))));
      if (!this.opts.ready.line) void waitForPort(this.opts.ready.port!, timeoutMs).then(() => (clearTimeout(timer), res()), rej);
    });
    await seen;
    this.out = '';
  }

  kill9(): void {
    if (this.running) this.child!.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    const child = this.child!;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(t);
  }
}

/** A PostgreSQL cluster of the test's own, with one database `faults` (owner `support`). */
export class OwnPostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'faults-pg-'));
  port = 0;
  private bin = '';

  get url(): string {
    return `postgresql://support@127.0.0.1:${this.port}/faults`;
  }

  private pg(tool: string, args: string[]): void {
    const run = isRoot ? ['runuser', ['-u', 'postgres', '--', join(this.bin, tool), ...args]] : [join(this.bin, tool), args];
    execFileSync(run[0] as string, run[1] as string[], { cwd: '/', stdio: 'pipe', env: { ...process.env, HOME: '/tmp' } });
  }

  async init(): Promise<void> {
    const major = execFileSync('bash', ['-c', 'ls /usr/lib/postgresql | sort -n | tail -1']).toString().trim();
    this.bin = `/usr/lib/postgresql/${major}/bin`;
    this.port = await freePort();
    if (isRoot) execFileSync('chown', ['postgres:', this.dir]);
    this.pg('initdb', ['-D', this.dir, '-U', 'support', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    await this.start();
    const c = new PgClient({ host: '127.0.0.1', port: this.port, user: 'support', database: 'postgres' });
    await c.connect();
    await c.query('CREATE DATABASE faults');
    await c.end();
  }

  async start(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c synchronous_commit=off -c max_connections=100`;
    this.pg('pg_ctl', ['-D', this.dir, '-w', '-t', '60', '-l', join(this.dir, 'log'), '-o', opts, 'start']);
  }

  /** a crash, as far as PostgreSQL can be crashed: no checkpoint, no goodbye to clients */
  stopImmediate(): void {
    this.pg('pg_ctl', ['-D', this.dir, '-m', 'immediate', 'stop']);
  }

  destroy(): void {
    try {
      this.pg('pg_ctl', ['-D', this.dir, '-m', 'immediate', 'stop']);
    } catch {
      /* not running */
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function ownRedis(port: number): Restartable {
  return new Restartable('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    ready: { port },
  });
}

export function ownTemporal(port: number, dbFile: string): Restartable {
  const cli = process.env.TEMPORAL_CLI_PATH ?? join(ROOT, '.tools/venv/bin/temporal');
  return new Restartable(
    'temporal',
    cli,
    ['server', 'start-dev', '--db-filename', dbFile, '--port', String(port), '--ip', '127.0.0.1', '--headless', '--log-level', 'error'],
    { ready: { port } },
  );
}

/** `npm run worker -- <queue>` as its own process (node --import tsx: SIGKILL reaches the worker itself). */
export function workerProcess(queue: string, env: NodeJS.ProcessEnv): Restartable {
  return new Restartable(`worker:${queue}`, process.execPath, ['--import', 'tsx', 'workers/main.ts', queue], {
    env,
    ready: { line: 'worker started' },
  });
}

/**
 * Stops what a fault test started: the in-process API first (it holds connections to the
 * rest), then the processes in the order given, PostgreSQL last (its folder goes with it).
 */
export async function stopFaultServices(o: { api?: { stop(): Promise<void> }; processes: Array<Restartable | undefined>; pg?: OwnPostgres }): Promise<void> {
  await o.api?.stop().catch(() => undefined);
  for (const p of o.processes) await p?.stop();
  o.pg?.destroy();
}
