// `npm start` (scripts/start.ts) as a user runs it: a `kill -9` of the ticketing worker
// leaves the API answering and the worker comes back; SIGTERM then stops every process
// it started, the Temporal dev server included. Its own database, ports and state folder,
// so the suite's workers and data are untouched.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from '../support/eventually';
import { freePort } from '../support/fault-services';
import { startNpmStart, type NpmStart } from '../support/npm-start';

const ROOT = resolve(__dirname, '..', '..');

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const until = <T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> =>
  eventually(probe, { what, timeoutMs });

describe('npm start under a kill -9', () => {
  let stack: NpmStart | undefined;

  afterAll(async () => {
    await stack?.cleanup();
  });

  it('keeps serving while the ticketing worker is killed and restarted, and SIGTERM stops everything', async () => {
    stack = await startNpmStart('start_e2e');
    const { proc, state, apiPort, started, exited } = stack;
    const output = stack.output;
    assert.equal(proc.exitCode, null, output());
    const health = async () => (await fetch(`http://127.0.0.1:${apiPort}/v1/health`, { signal: AbortSignal.timeout(5000) })).status;
    assert.equal(await health(), 200);
    const workerLinesBefore = output().split('\n').filter((l) => l.startsWith('[worker:ticketing]') && l.includes('worker started')).length;

    const [workerPid] = started('worker:ticketing');
    const [apiPid] = started('api');
    process.kill(workerPid, 'SIGKILL');
    // the API keeps answering all the while; the worker comes back and polls again
    const statuses: number[] = [];
    await until(
      'the ticketing worker to be back',
      async () => {
        statuses.push(await health());
        const lines = output().split('\n').filter((l) => l.startsWith('[worker:ticketing]') && l.includes('worker started'));
        return started('worker:ticketing').length === 2 && lines.length > workerLinesBefore;
      },
      90_000,
    );
    assert.ok(statuses.every((s) => s === 200), `health answers during the restart: ${statuses.join(',')}`);
    assert.match(output(), /worker:ticketing exited \(signal SIGKILL\)/);
    assert.match(output(), /restarting worker:ticketing in /);
    assert.deepEqual(started('api'), [apiPid], 'the API was not restarted');
    assert.equal(proc.exitCode, null, 'npm start is still running');

    const everyPid = [...output().matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    assert.ok(existsSync(join(state, 'temporal-dev-server.json')));
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, output());
    for (const pid of everyPid) await until(`pid ${pid} gone`, () => !alive(pid), 10_000);
    assert.equal(existsSync(join(state, 'temporal-dev-server.json')), false, 'the dev server record is gone with the server');
  });

  it('a SIGTERM in the first seconds (Temporal still starting) stops what was started', async () => {
    // the ports are picked free and raced for: a start that lost its API port (refused
    // before anything is spawned) is tried again on fresh ones
    for (let tries = 1; ; tries++) {
      const early = mkdtempSync(join(tmpdir(), 'start-e2e-early-'));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(await freePort()),
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
        START_STATE_DIR: early,
        NO_COLOR: '1',
      };
      delete env.TEMPORAL_ADDRESS;
      const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      p.stdout.on('data', (d) => (text += d));
      p.stderr.on('data', (d) => (text += d));
      const exited = new Promise<number | null>((r) => p.on('exit', (code) => r(code)));
      try {
        const spawned = await until('the dev server to be spawned', () => /temporal started \(pid (\d+)\)/.exec(text) || (p.exitCode !== null && 'exited'), 30_000);
        if (spawned === 'exited') {
          if (tries < 3 && /is already in use/.test(text)) continue;
          assert.fail(`npm start exited before it started Temporal:\n${text}`);
        }
        const temporalPid = Number(spawned[1]);
        p.kill('SIGTERM');
        assert.equal(await exited, 0, text);
        await until(`the dev server (pid ${temporalPid}) gone`, () => !alive(temporalPid), 10_000);
        assert.equal(existsSync(join(early, 'temporal-dev-server.json')), false);
        assert.doesNotMatch(text, /running; Ctrl-C stops everything/);
        return;
      } finally {
        if (p.exitCode === null) p.kill('SIGKILL');
        rmSync(early, { recursive: true, force: true });
      }
    }
  });
});
