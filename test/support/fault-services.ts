// The fault test's own dependencies, each one it may kill and start again without
// touching the shared test cluster, Redis or Temporal server other test files use:
// a PostgreSQL cluster (pg_ctl stop -m immediate), a Redis and a Temporal dev server
// (SIGKILL), and worker processes (SIGKILL). All on 127.0.0.1.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** fresh ports tried before a start on a picked port gives up */
const PORT_TRIES = 5;

/**
 * Starts something on a port picked free, and again on a fresh port when that start fails:
 * between the pick and the server's bind anything else on the machine (another test file,
 * another checkout's run) may take the port. The last failure, with the server's own log in
 * its message, is what a run that never got a port reports.
 */
export async function onFreshPort<T>(what: string, start: (port: number) => Promise<T>, tries = PORT_TRIES): Promise<T> {
  const failures: string[] = [];
  for (let n = 1; ; n++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (err) {
      failures.push(`try ${n} on 127.0.0.1:${port}: ${(err as Error).message}`);
      if (n >= tries) throw new Error(`${what} did not start on any of ${tries} fresh ports:\n${failures.join('\n')}`);
    }
  }
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

/**
 * When a Restartable counts as started: `line` in its output, and, for a server on a port
 * of its own (`onPort`), that port accepting connections too. The line is the process's
 * own word that it bound the port, so another program that took the port meanwhile never
 * passes for it; a server that cannot bind exits, and its first start moves to a fresh port.
 */
export type Readiness = { line: string; onPort?: false } | { line: string; onPort: true };

/** A process the test may SIGKILL and start again with the same command (and port). */
export class Restartable {
  private child?: ChildProcess;
  private out = '';
  /** the port of a server on a port of its own: picked at its first start, kept by restarts */
  port = 0;
  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[] | ((port: number) => string[]),
    private readonly opts: { env?: NodeJS.ProcessEnv; ready: Readiness },
  ) {}

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.out.slice(-4000);
  }

  /**
   * Starts the process. A server on a port of its own gets a free port at its first start
   * (a fresh one when that start fails); a restart keeps the port its clients know.
   */
  async start(timeoutMs = 60_000): Promise<void> {
    if (!this.opts.ready.onPort || this.port) return this.spawnOnce(this.port, timeoutMs);
    this.port = await onFreshPort(this.name, async (port) => (await this.spawnOnce(port, timeoutMs), port));
  }

  private async spawnOnce(port: number, timeoutMs: number): Promise<void> {
    const args = typeof this.args === 'function' ? this.args(port) : this.args;
    const child = spawn(this.command, args, { cwd: ROOT, env: { ...process.env, ...this.opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.out = '';
    const { line, onPort } = this.opts.ready;
    const seen = new Promise<void>((res, rej) => {
      let done = false;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) rej(err);
        else res();
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(new Error(`${this.name} not ready after ${timeoutMs} ms; its output:\n${this.output()}`));
      }, timeoutMs);
      let lineSeen = false;
      const onData = (chunk: Buffer) => {
        this.out += chunk.toString();
        if (lineSeen || !this.out.includes(line)) return;
        lineSeen = true;
        if (!onPort) return finish();
        void eventually(() => !this.running || listening(port), { timeoutMs, what: `${this.name} listening on 127.0.0.1:${port}` }).then(
          () => finish(this.running ? undefined : new Error(`${this.name} exited right after starting; its output:\n${this.output()}`)),
          finish,
        );
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => finish(new Error(`${this.name} exited (${code ?? signal}); its output:\n${this.output()}`)));
    });
    await seen;
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

  private get logFile(): string {
    return join(this.dir, 'log');
  }

  private pg(tool: string, args: string[]): void {
    const run = isRoot ? ['runuser', ['-u', 'postgres', '--', join(this.bin, tool), ...args]] : [join(this.bin, tool), args];
    execFileSync(run[0] as string, run[1] as string[], { cwd: '/', stdio: 'pipe', env: { ...process.env, HOME: '/tmp' } });
  }

  /** initdb, then the first start on a free port (a fresh one when the start fails), then the database */
  async init(): Promise<void> {
    const major = execFileSync('bash', ['-c', 'ls /usr/lib/postgresql | sort -n | tail -1']).toString().trim();
    this.bin = `/usr/lib/postgresql/${major}/bin`;
    if (isRoot) execFileSync('chown', ['postgres:', this.dir]);
    this.pg('initdb', ['-D', this.dir, '-U', 'support', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    this.port = await onFreshPort('PostgreSQL', async (port) => {
      this.port = port;
      await this.start();
      return port;
    });
    const c = new PgClient({ host: '127.0.0.1', port: this.port, user: 'support', database: 'postgres' });
    await c.connect();
    await c.query('CREATE DATABASE faults');
    await c.end();
  }

  /** starts the cluster on its port; a failure says what pg_ctl and the server's log said */
  async start(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c synchronous_commit=off -c max_connections=100`;
    try {
      this.pg('pg_ctl', ['-D', this.dir, '-w', '-t', '60', '-l', this.logFile, '-o', opts, 'start']);
    } catch (err) {
      const e = err as Error & { stderr?: Buffer; stdout?: Buffer };
      const said = `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? e.message}`.trim();
      // a start that timed out may still be coming up: stop it before a retry takes another port
      try {
        this.pg('pg_ctl', ['-D', this.dir, '-m', 'immediate', 'stop']);
      } catch {
        /* not running */
      }
      throw new Error(`PostgreSQL on 127.0.0.1:${this.port} did not start: ${said}\nits log (${this.logFile}):\n${readTail(this.logFile)}`);
    }
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

function readTail(file: string, chars = 4000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '(no log)';
  }
}

/** A Redis of the test's own on a free port (`.port` once started). */
export function ownRedis(): Restartable {
  return new Restartable('redis', 'redis-server', (port) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    ready: { line: 'Ready to accept connections', onPort: true },
  });
}

/** A Temporal dev server of the test's own on a free port (`.port` once started). */
export function ownTemporal(dbFile: string): Restartable {
  const cli = process.env.TEMPORAL_CLI_PATH ?? join(ROOT, '.tools/venv/bin/temporal');
  return new Restartable(
    'temporal',
    cli,
    (port) => ['server', 'start-dev', '--db-filename', dbFile, '--port', String(port), '--ip', '127.0.0.1', '--headless', '--log-level', 'error'],
    // the CLI prints its address once it checked the port is its own (it exits when taken)
    { ready: { line: 'Temporal Server:', onPort: true } },
  );
}

/**
 * Starts the worker processes of a run on its own Temporal dev server. A dev server that
 * died right after it came up (seen once in CI: a port it picks for itself was taken) is
 * started again, as a supervisor would, and the workers with it.
 */
export async function startWorkersOn(temporal: Restartable, workers: Restartable[]): Promise<void> {
  try {
    await Promise.all(workers.map((w) => w.start()));
  } catch (err) {
    if (temporal.running) throw err;
    process.stderr.write(`[faults] Temporal dev server gone before the workers connected; restarting it:\n${temporal.output()}\n`);
    await Promise.all(workers.map((w) => w.stop()));
    await temporal.start();
    await Promise.all(workers.map((w) => w.start()));
  }
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
