// Child processes of a bench run: each in its own process group (so tsx's node child
// and anything it spawns go with it), output kept in a log file, and all of them
// killed on teardown, on error and on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export interface Child {
  name: string;
  proc: ChildProcess;
  logFile: string;
  exited: boolean;
  exitCode: number | null;
  done: Promise<void>;
}

const children: Child[] = [];

export function startChild(
  name: string,
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; logDir: string; ipc?: boolean },
): Child {
  const logFile = join(opts.logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const proc = spawn(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: opts.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  const child: Child = { name, proc, logFile, exited: false, exitCode: null, done: Promise.resolve() };
  child.done = new Promise((resolve) => {
    proc.on('error', (err) => {
      log.write(`\n[bench] spawn error: ${err.message}\n`);
      child.exited = true;
      resolve();
    });
    proc.on('exit', (code, signal) => {
      child.exited = true;
      child.exitCode = code ?? (signal ? 128 : 1);
      resolve();
    });
  });
  children.push(child);
  return child;
}

export function tail(child: Child, lines = 30): string {
  try {
    return readFileSync(child.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function signalGroup(c: Child, sig: NodeJS.Signals) {
  if (!c.proc.pid || c.exited) return;
  try {
    process.kill(-c.proc.pid, sig);
  } catch {
    /* gone */
  }
}

/** SIGTERM to every group still running, then SIGKILL after `graceMs`. */
export async function stopAll(graceMs = 5000, order?: (c: Child) => number): Promise<void> {
  const groups = new Map<number, Child[]>();
  for (const c of children) {
    const k = order ? order(c) : 0;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  for (const k of [...groups.keys()].sort((a, b) => a - b)) {
    const group = groups.get(k)!.filter((c) => !c.exited);
    for (const c of group) signalGroup(c, 'SIGTERM');
    await Promise.race([Promise.all(group.map((c) => c.done)), new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const c of group) signalGroup(c, 'SIGKILL');
  }
}

/** Last resort on process exit: synchronous SIGKILL to every group still alive. */
export function killAllSync(): void {
  for (const c of children) signalGroup(c, 'SIGKILL');
}

export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ port, host });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it is true; throws with the child's log tail if it exits or time runs out. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, child?: Child): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child?.exited) throw new Error(`${what}: ${child.name} exited (code ${child.exitCode}); log ${child.logFile}:\n${tail(child)}`);
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what}: not ready after ${timeoutMs / 1000}s${child ? `; log ${child.logFile}:\n${tail(child)}` : ''}`);
}

export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return res.ok;
}
