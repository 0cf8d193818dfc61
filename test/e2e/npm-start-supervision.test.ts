// `npm start` (scripts/start.ts) as a user runs it: a `kill -9` of the ticketing worker
// leaves the API answering and the worker comes back; SIGTERM then stops every process
// it started, the Temporal dev server included. Its own database, ports and state folder,
// so the suite's workers and data are untouched.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { eventually } from '../support/eventually';

const ROOT = resolve(__dirname, '..', '..');

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

const until = <T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> =>
  eventually(probe, { what, timeoutMs });

async function adminQuery(sql: string): Promise<void> {
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe('npm start under a kill -9', () => {
  const dbName = `support_start_e2e_${process.pid}`;
  const state = mkdtempSync(join(tmpdir(), 'start-e2e-'));
  let proc: ChildProcess | undefined;
  let out = '';

  afterAll(async () => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    rmSync(state, { recursive: true, force: true });
  });

  it('keeps serving while the ticketing worker is killed and restarted, and SIGTERM stops everything', async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${dbName}`;
    const [apiPort, temporalPort, uiPort, mailPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      MAIL_SINK_PORT: String(mailPort),
      START_STATE_DIR: state,
      DEMO_CREDENTIALS_FILE: join(state, 'demo-credentials.json'),
      NO_COLOR: '1',
      LOG_LEVEL: 'info',
    };
    delete env.TEMPORAL_ADDRESS;
    delete env.SMTP_URL;
    delete env.MAIL_SINK_DIR;
    proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => proc!.on('exit', (code) => r(code)));
    const started = (name: string) => [...out.matchAll(new RegExp(`\\[start\\]\\s+${name} started \\(pid (\\d+)\\)`, 'g'))].map((m) => Number(m[1]));

    await until('npm start to be running', () => out.includes('running; Ctrl-C stops everything') || proc!.exitCode !== null, 150_000);
    assert.equal(proc.exitCode, null, out);
    const health = async () => (await fetch(`http://127.0.0.1:${apiPort}/v1/health`, { signal: AbortSignal.timeout(5000) })).status;
    assert.equal(await health(), 200);
    const workerLinesBefore = out.split('\n').filter((l) => l.startsWith('[worker:ticketing]') && l.includes('worker started')).length;

    const [workerPid] = started('worker:ticketing');
    const [apiPid] = started('api');
    process.kill(workerPid, 'SIGKILL');
    // the API keeps answering all the while; the worker comes back and polls again
    const statuses: number[] = [];
    await until(
      'the ticketing worker to be back',
      async () => {
        statuses.push(await health());
        const lines = out.split('\n').filter((l) => l.startsWith('[worker:ticketing]') && l.includes('worker started'));
        return started('worker:ticketing').length === 2 && lines.length > workerLinesBefore;
      },
      90_000,
    );
    assert.ok(statuses.every((s) => s === 200), `health answers during the restart: ${statuses.join(',')}`);
    assert.match(out, /worker:ticketing exited \(signal SIGKILL\)/);
    assert.match(out, /restarting worker:ticketing in /);
    assert.deepEqual(started('api'), [apiPid], 'the API was not restarted');
    assert.equal(proc.exitCode, null, 'npm start is still running');

    const everyPid = [...out.matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    assert.ok(existsSync(join(state, 'temporal-dev-server.json')));
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, out);
    for (const pid of everyPid) await until(`pid ${pid} gone`, () => !alive(pid), 10_000);
    assert.equal(existsSync(join(state, 'temporal-dev-server.json')), false, 'the dev server record is gone with the server');
  });

  it('a SIGTERM in the first seconds (Temporal still starting) stops what was started', async () => {
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
      const temporalPid = Number((await until('the dev server to be spawned', () => /temporal started \(pid (\d+)\)/.exec(text), 30_000))[1]);
      p.kill('SIGTERM');
      assert.equal(await exited, 0, text);
      await until(`the dev server (pid ${temporalPid}) gone`, () => !alive(temporalPid), 10_000);
      assert.equal(existsSync(join(early, 'temporal-dev-server.json')), false);
      assert.doesNotMatch(text, /running; Ctrl-C stops everything/);
    } finally {
      if (p.exitCode === null) p.kill('SIGKILL');
      rmSync(early, { recursive: true, force: true });
    }
  });
});
