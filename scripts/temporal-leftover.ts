// A Temporal dev server that an earlier `npm start` left running (its supervisor killed
// outright, say) is never reused silently: it may run another version, other flags or a
// stale database, and nothing would stop it at the end. `npm start` records the server it
// starts in a small JSON file; at the next start a recorded server that still runs is
// stopped (with a message), and a port held by anything else is refused.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface DevServerRecord {
  pid: number;
  port: number;
  dbFile: string;
  startedAt: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function writeRecord(file: string, rec: DevServerRecord): void {
  writeFileSync(file, JSON.stringify(rec) + '\n');
}

export function removeRecord(file: string): void {
  rmSync(file, { force: true });
}

function readRecord(file: string): DevServerRecord | null {
  if (!existsSync(file)) return null;
  try {
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    return Number.isInteger(rec?.pid) ? rec : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The recorded pid still is a `temporal server start-dev` (not a reused pid). */
function isDevServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('start-dev');
  } catch {
    return alive(pid); // no /proc: trust the record
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return !alive(pid);
}

/**
 * Stops the dev server recorded in `file` if it still runs, then makes sure nothing else
 * holds `ports`; throws with what to do otherwise.
 */
export async function clearLeftoverDevServer(
  file: string,
  ports: number[],
  portOpen: (port: number) => Promise<boolean>,
  notice: (message: string) => void,
): Promise<void> {
  const rec = readRecord(file);
  if (rec && alive(rec.pid) && isDevServer(rec.pid)) {
    notice(
      `a Temporal dev server left over from an earlier npm start is still running (pid ${rec.pid}, port ${rec.port}, ` +
        `since ${rec.startedAt}); stopping it instead of reusing it`,
    );
    process.kill(rec.pid, 'SIGTERM');
    if (!(await waitGone(rec.pid, 10_000))) {
      process.kill(rec.pid, 'SIGKILL');
      await waitGone(rec.pid, 5_000);
    }
  }
  removeRecord(file);
  for (const port of ports) {
    if (await portOpen(port)) {
      throw new Error(
        `127.0.0.1:${port} is in use by a process this checkout's npm start did not start, so the Temporal dev ` +
          `server cannot start. Stop that process, or set TEMPORAL_ADDRESS=127.0.0.1:${ports[0]} to use a server ` +
          `you run yourself on purpose (or TEMPORAL_DEV_PORT / TEMPORAL_UI_PORT to run ours on other ports)`,
      );
    }
  }
}
