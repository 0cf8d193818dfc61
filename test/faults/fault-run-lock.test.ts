// The lock that makes the fault runs take turns (test/support/fault-run-lock.ts), on a
// lock folder of this test: a second taker waits until the first releases, a holder that
// died is taken over, and only the holder releases.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseFaultRunLock, takeFaultRunLock } from '../support/fault-run-lock';

const dir = mkdtempSync(join(tmpdir(), 'fault-run-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a second taker waits for the release; a waiter that gives up says who holds it', async () => {
  const lock = join(dir, 'a.lock');
  // taken without waiting a turn (a waiter polls every 200 ms); not an exact 0: the clock may tick meanwhile
  assert.ok((await takeFaultRunLock('first', 1000, lock)) < 200);
  await assert.rejects(takeFaultRunLock('second', 300, lock), /"name":"first"/);
  let secondWaited = -1;
  const second = takeFaultRunLock('second', 10_000, lock).then((ms) => (secondWaited = ms));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(secondWaited, -1, 'the second taker still waits');
  releaseFaultRunLock(lock);
  await second;
  assert.ok(secondWaited >= 300, `the second taker got the lock after the release (${secondWaited} ms)`);
  releaseFaultRunLock(lock);
  assert.equal(existsSync(lock), false);
});

test('a lock whose holder died is taken over; a lock held by a live process is not released by another', async () => {
  const lock = join(dir, 'b.lock');
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => dead.once('exit', r));
  mkdirSync(lock);
  writeFileSync(join(lock, 'holder.json'), JSON.stringify({ pid: dead.pid, name: 'killed run' }));
  assert.equal(await takeFaultRunLock('next', 5000, lock) < 5000, true);

  writeFileSync(join(lock, 'holder.json'), JSON.stringify({ pid: process.ppid, name: 'another live run' }));
  releaseFaultRunLock(lock);
  assert.equal(existsSync(lock), true, 'only the holder releases');
  rmSync(lock, { recursive: true, force: true });
});
