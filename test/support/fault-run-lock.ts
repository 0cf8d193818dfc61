// One fault run at a time per checkout. Jest runs two test files at once (maxWorkers: 2),
// and a fault run beside another one on the machine's two cores makes both miss their
// deadlines for want of CPU, not for the fault: a campaign of the push fault run once
// stayed Queued past its deadline while the onboarding crash test ran beside it. Each file
// of test/faults takes this lock for its whole run, so under `npm test` and
// `npm run test:faults` alike the fault runs follow one another (a light test file of
// another tier may still run beside one). The lock is a directory (mkdir is atomic) naming
// its holder; a holder that died without releasing it (a killed jest worker) is recognised
// by its pid and the lock taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK = join(resolve(__dirname, '../..'), '.data', 'fault-run.lock');
/** how long a fault run may wait for the ones before it (each takes 2-3 min) */
const WAIT_MS = 30 * 60_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function holder(lock: string): { pid: number; name: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(lock, 'holder.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function tryTake(lock: string, name: string): boolean {
  try {
    mkdirSync(lock, { recursive: false });
  } catch {
    const h = holder(lock);
    // a holder that never wrote its name is between its mkdir and its write: wait for it
    if (h && !alive(h.pid)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(lock, 'holder.json'), JSON.stringify({ pid: process.pid, name }));
  return true;
}

/** Takes the lock once no other fault run holds it; resolves with how long it waited. */
export async function takeFaultRunLock(name: string, waitMs = WAIT_MS, lock = LOCK): Promise<number> {
  mkdirSync(join(lock, '..'), { recursive: true });
  const since = Date.now();
  while (!tryTake(lock, name)) {
    if (Date.now() - since > waitMs) throw new Error(`fault run ${name}: ${JSON.stringify(holder(lock))} held ${lock} for ${waitMs} ms`);
    await sleep(200);
  }
  return Date.now() - since;
}

/** Releases the lock if this process holds it. */
export function releaseFaultRunLock(lock = LOCK): void {
  if (holder(lock)?.pid === process.pid) rmSync(lock, { recursive: true, force: true });
}

/**
 * Registers beforeAll/afterAll that hold the lock around the file's run. Call it before the
 * file's own beforeAll, so its services start only once the lock is held.
 */
export function oneFaultRunAtATime(name: string): void {
  beforeAll(async () => {
    const waited = await takeFaultRunLock(name);
    if (waited > 1000) console.log(`fault run ${name} waited ${Math.round(waited / 1000)} s for the one before it`);
  }, WAIT_MS + 60_000);
  afterAll(() => releaseFaultRunLock());
}
