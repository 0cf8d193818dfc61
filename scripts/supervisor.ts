// The process supervisor behind `npm start`: starts long-running children, restarts one
// that dies with an exponential backoff while the others keep serving, gives up on a
// crash loop (too many deaths within a window), and stops every child it started, in
// order, when asked — also children started while the stop was already under way.
//
// Children run in their own process group (so a Ctrl-C reaches only the supervisor,
// which then stops them in order) and, where util-linux `setpriv` exists, with a parent-
// death signal: were the supervisor itself killed with SIGKILL, they get SIGTERM instead
// of living on as orphans.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface ChildSpec {
  name: string;
  command: string;
  /** a function when the arguments depend on the moment of (re)start */
  args: string[] | (() => string[]);
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** lower stops first; default 0 (e.g. workers and API 0, the Temporal server 1) */
  stopOrder?: number;
  /** called with the pid of every (re)start of a supervised child */
  onStart?: (pid: number) => void;
}

export interface RestartPolicy {
  /** delay before the first restart; doubled per death within the window */
  initialDelayMs: number;
  maxDelayMs: number;
  /** this many deaths within `windowMs` is a crash loop: give up */
  maxDeaths: number;
  windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 10_000, maxDeaths: 5, windowMs: 60_000 };

export interface SupervisorOptions {
  /** a line a child wrote (name = the child's) */
  output(name: string, line: string, stream: 'stdout' | 'stderr'): void;
  /** what the supervisor itself has to say */
  notice(message: string, level: 'info' | 'error'): void;
  /** a child crash-looped; called once, before the supervisor stops everything else */
  onGiveUp(name: string, message: string): void;
  restart?: Partial<RestartPolicy>;
  /** time a child gets between SIGTERM and SIGKILL */
  stopGraceMs?: number;
}

export interface OneShotResult {
  code: number;
  stdout: string[];
}

interface Running {
  spec: ChildSpec;
  proc: ChildProcess;
  exited: Promise<number>;
  oneShot: boolean;
}

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
// unref'd: a pending grace timer must not keep the process alive once everything stopped
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export function exitLabel(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

export class Supervisor {
  private readonly running = new Set<Running>();
  private readonly deaths = new Map<string, number[]>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private readonly policy: RestartPolicy;
  private stopping: Promise<void> | undefined;

  constructor(private readonly opts: SupervisorOptions) {
    this.policy = { ...DEFAULT_RESTART_POLICY, ...opts.restart };
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** pid of each running child by name (the supervisor's log says them too) */
  pids(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.running) if (r.proc.pid) out[r.spec.name] = r.proc.pid;
    return out;
  }

  /** Starts a long-running child and keeps it running until stop(). */
  supervise(spec: ChildSpec): void {
    const r = this.spawn(spec, false);
    if (!r) return;
    this.opts.notice(`${spec.name} started (pid ${r.proc.pid})`, 'info');
    if (r.proc.pid) spec.onStart?.(r.proc.pid);
    void r.exited.then((code) => this.onDeath(spec, code));
  }

  /** Runs a child to completion (migrations, a CLI call); stop() ends it too. */
  async runOnce(spec: ChildSpec, captureStdout = false): Promise<OneShotResult> {
    const stdout: string[] = [];
    const r = this.spawn(spec, true, captureStdout ? stdout : undefined);
    if (!r) return { code: 143, stdout };
    return { code: await r.exited, stdout };
  }

  /** Stops every child: SIGTERM by stopOrder group, SIGKILL after the grace time. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const t of this.restartTimers) clearTimeout(t);
      const orders = [...new Set([...this.running].map((r) => r.spec.stopOrder ?? 0))].sort((a, b) => a - b);
      for (const order of orders) {
        await this.stopGroup([...this.running].filter((r) => (r.spec.stopOrder ?? 0) === order));
      }
      // anything started meanwhile (a one-shot racing the stop) goes too
      await this.stopGroup([...this.running]);
    })();
    return this.stopping;
  }

  /** Last resort (a second Ctrl-C, process exit): SIGKILL to every child's group now. */
  killAll(): void {
    for (const r of this.running) killGroup(r.proc, 'SIGKILL');
  }

  private spawn(spec: ChildSpec, oneShot: boolean, capture?: string[]): Running | undefined {
    if (this.stopping) return undefined;
    const args = typeof spec.args === 'function' ? spec.args() : spec.args;
    const [cmd, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'TERM', '--', spec.command, ...args]] : [spec.command, args];
    const proc = spawn(cmd, argv, { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pipe = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr') => {
      if (!stream) return;
      createInterface({ input: stream }).on('line', (line) => {
        if (capture && name === 'stdout') capture.push(line);
        else this.opts.output(spec.name, line, name);
      });
    };
    pipe(proc.stdout, 'stdout');
    pipe(proc.stderr, 'stderr');
    const r: Running = { spec, proc, oneShot, exited: Promise.resolve(0) };
    r.exited = new Promise((resolve) => {
      let done = false;
      const finish = (code: number, why: string) => {
        if (done) return;
        done = true;
        this.running.delete(r);
        if (!oneShot && !this.stopping) this.opts.notice(`${spec.name} exited (${why})`, 'error');
        resolve(code);
      };
      proc.once('error', (err) => finish(127, err.message));
      proc.once('exit', (code, signal) => finish(code ?? 128, exitLabel(code, signal)));
    });
    this.running.add(r);
    return r;
  }

  private onDeath(spec: ChildSpec, _code: number): void {
    if (this.stopping) return;
    const now = Date.now();
    const recent = (this.deaths.get(spec.name) ?? []).filter((t) => now - t < this.policy.windowMs);
    recent.push(now);
    this.deaths.set(spec.name, recent);
    const { maxDeaths, windowMs, initialDelayMs, maxDelayMs } = this.policy;
    if (recent.length >= maxDeaths) {
      const message =
        `${spec.name} died ${recent.length} times within ${windowMs / 1000} s: a crash loop, giving up ` +
        `(its output above says why; fix that and start again)`;
      this.opts.notice(message, 'error');
      this.opts.onGiveUp(spec.name, message);
      return;
    }
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** (recent.length - 1));
    this.opts.notice(
      `restarting ${spec.name} in ${(delay / 1000).toFixed(1)} s (death ${recent.length} of ${maxDeaths - 1} tolerated within ${windowMs / 1000} s)`,
      'info',
    );
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      this.supervise(spec);
    }, delay);
    this.restartTimers.add(timer);
  }

  private async stopGroup(group: Running[]): Promise<void> {
    if (!group.length) return;
    // SIGTERM to the child itself, which shuts down its own way (tsx/node relay nothing)
    for (const r of group) r.proc.kill('SIGTERM');
    const grace = sleep(this.opts.stopGraceMs ?? 10_000);
    await Promise.race([Promise.all(group.map((r) => r.exited)), grace]);
    for (const r of group) killGroup(r.proc, 'SIGKILL'); // stragglers and grandchildren
    await Promise.race([Promise.all(group.map((r) => r.exited)), sleep(2_000)]);
  }
}

function killGroup(proc: ChildProcess, sig: NodeJS.Signals): void {
  if (!proc.pid) return;
  try {
    process.kill(-proc.pid, sig);
  } catch {
    /* already gone */
  }
}
