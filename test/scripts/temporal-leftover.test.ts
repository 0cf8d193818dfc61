// A Temporal dev server left over from an earlier `npm start` is stopped, never reused;
// a port held by anything else is refused with what to do.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearLeftoverDevServer, writeRecord } from '../../scripts/temporal-leftover';

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('a leftover Temporal dev server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leftover-'));
  const record = join(dir, 'temporal-dev-server.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is stopped with a message when the record names a running dev server', async () => {
    // stands in for `temporal server start-dev …` (same argv word), started by an earlier run
    const leftover = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server', 'start-dev'], { stdio: 'ignore' });
    await new Promise((r) => leftover.once('spawn', r));
    writeRecord(record, { pid: leftover.pid!, port: 1, dbFile: 'x', startedAt: new Date().toISOString() });
    const notices: string[] = [];
    await clearLeftoverDevServer(record, [], async () => false, (m) => notices.push(m));
    await new Promise((r) => (leftover.exitCode !== null || leftover.signalCode ? r(null) : leftover.once('exit', r)));
    assert.equal(alive(leftover.pid!), false);
    assert.equal(notices.length, 1);
    assert.match(notices[0], new RegExp(`left over from an earlier npm start is still running \\(pid ${leftover.pid}.*stopping it instead of reusing it`));
    assert.equal(existsSync(record), false);
  });

  it('leaves a process alone whose pid is recorded but which is no dev server', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((r) => other.once('spawn', r));
    try {
      writeRecord(record, { pid: other.pid!, port: 1, dbFile: 'x', startedAt: new Date().toISOString() });
      await clearLeftoverDevServer(record, [], async () => false, () => assert.fail('no notice expected'));
      assert.ok(alive(other.pid!));
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('refuses a port held by a process npm start did not start', async () => {
    const squatter: Server = await new Promise((r) => {
      const s = createServer().listen(0, '127.0.0.1', () => r(s));
    });
    const port = (squatter.address() as { port: number }).port;
    const portOpen = async (p: number) => p === port;
    try {
      await assert.rejects(clearLeftoverDevServer(record, [port], portOpen, () => {}), (err: Error) => {
        assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port} is in use by a process this checkout's npm start did not start`));
        assert.match(err.message, /TEMPORAL_ADDRESS=/);
        return true;
      });
    } finally {
      squatter.close();
    }
  });
});
