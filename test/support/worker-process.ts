// A worker in an OS process of its own, that a fault test can SIGKILL and start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { TaskQueue } from '../../workers/registry';

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(__dirname, 'queue-worker-main.ts');
const READY_LINE = 'test worker polling'; // = READY_LINE in queue-worker-main.ts

export interface WorkerProcess {
  pid: number;
  /** resolves with the exit code or signal once the process is gone */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** everything it printed so far (for failure messages) */
  output(): string;
  /** SIGKILL: no handler runs, no in-flight work is finished or reported */
  kill9(): void;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it is gone */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts test/support/queue-worker-main.ts: the registry's `queue` worker polling
 * `taskQueue`, and resolves once it polls.
 *
 * `node --import tsx <file>`, not `node_modules/.bin/tsx <file>`: the tsx CLI runs the
 * script in a CHILD node process and only relays SIGINT/SIGTERM to it, so a SIGKILL of the
 * CLI's pid would kill the wrapper and leave the actual worker running, orphaned.
 */
export async function startQueueWorker(
  queue: TaskQueue,
  taskQueue: string,
  opts: { env?: NodeJS.ProcessEnv; readyTimeoutMs?: number } = {},
): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY, queue, taskQueue], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let state: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    child.once('exit', (code, signal) => res((state = { code, signal })));
  });
  const ready = new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`worker on ${taskQueue} not ready after ${opts.readyTimeoutMs ?? 60_000} ms:\n${out}`)), opts.readyTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(READY_LINE)) {
        clearTimeout(timer);
        res();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(err);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rej(new Error(`worker on ${taskQueue} exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
  const handle: WorkerProcess = {
    pid: child.pid!,
    exited,
    output: () => out,
    kill9() {
      if (!state) process.kill(child.pid!, 'SIGKILL');
    },
    async stop(graceMs = 5000) {
      if (state) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => state || child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await ready;
  } catch (err) {
    await handle.stop(0);
    throw err;
  }
  return handle;
}
