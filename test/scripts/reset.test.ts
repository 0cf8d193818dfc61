// `npm run reset` (scripts/reset.sh) in a throwaway copy of the checkout, set up by its own
// scripts/ensure.sh on ports of its own: the copy sits in a folder the postgres user cannot
// enter, so its cluster lives in /var/lib/postgresql/project-<hash> (not in .data), as on a
// machine with private home directories. The reset stops the cluster, Redis and a Temporal
// dev server writing under .data, and removes the cluster wherever it is, with .data and its
// master key. With the database elsewhere (DATABASE_URL set), the database is not touched and
// the master key that sealed its secrets is kept.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { eventually } from '../support/eventually';
import { freePort } from '../support/fault-services';

const ROOT = resolve(__dirname, '..', '..');
const copies: string[] = [];

const listening = (port: number) =>
  new Promise<boolean>((r) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), r(true)));
    c.once('error', () => r(false));
  });

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** The scripts reset and set-up need, and links to the installed packages and tools. */
function throwawayCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'reset-copy-')); // mode 700: the postgres user cannot enter it
  copies.push(copy);
  mkdirSync(join(copy, 'scripts'));
  for (const f of ['scripts/ensure.sh', 'scripts/reset.sh', 'package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(copy, f));
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  // the tools venv (schemathesis's stamp lives there): the one TEMPORAL_CLI_PATH belongs to
  const tools = process.env.TEMPORAL_CLI_PATH ? resolve(dirname(process.env.TEMPORAL_CLI_PATH), '..', '..') : join(ROOT, '.tools');
  if (existsSync(tools)) symlinkSync(tools, join(copy, '.tools'));
  return copy;
}

function copyEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'REDIS_URL', 'TEST_REDIS_URL', 'WEBHOOK_SECRET_KEY']) if (!(k in extra)) delete env[k];
  return env;
}

function run(copy: string, script: string, env: NodeJS.ProcessEnv): { code: number; out: string } {
  const r = spawnSync('bash', [script], { cwd: copy, env, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** ensure.sh on fresh ports (a port picked free may be taken before the daemon binds it). */
async function ensureOnFreshPorts(copy: string): Promise<{ pgPort: number; redisPort: number; env: NodeJS.ProcessEnv }> {
  const outputs: string[] = [];
  for (let tries = 1; tries <= 3; tries++) {
    const [pgPort, redisPort] = [await freePort(), await freePort()];
    const env = copyEnv({ PGPORT_LOCAL: String(pgPort), REDIS_PORT_LOCAL: String(redisPort) });
    const r = run(copy, 'scripts/ensure.sh', env);
    if (r.code === 0) return { pgPort, redisPort, env };
    outputs.push(r.out);
    if (!/is taken|in use/i.test(r.out)) break;
    run(copy, 'scripts/reset.sh', env);
  }
  throw new Error(`scripts/ensure.sh failed in the copy:\n${outputs.join('\n---\n')}`);
}

afterAll(() => {
  for (const copy of copies) {
    // a failed test may leave a cluster running: reset is idempotent, then the copy goes
    if (existsSync(join(copy, '.data'))) spawnSync('bash', ['scripts/reset.sh'], { cwd: copy, env: copyEnv({}), timeout: 120_000 });
    rmSync(copy, { recursive: true, force: true });
  }
});

test('stops the cluster (outside .data), Redis and a Temporal dev server, and removes them with .data and the key', async () => {
  const copy = throwawayCopy();
  const { pgPort, redisPort, env } = await ensureOnFreshPorts(copy);
  const data = join(copy, '.data');
  const pgdata = readFileSync(join(data, 'postgres-datadir'), 'utf8').trim();
  assert.match(pgdata, /^\/var\/lib\/postgresql\/project-/, 'the cluster lives outside the checkout');
  assert.ok(existsSync(join(pgdata, 'PG_VERSION')));
  assert.ok(existsSync(join(data, 'webhook-secret-key')));
  assert.ok((await listening(pgPort)) && (await listening(redisPort)));

  // a dev server as npm start runs it: its SQLite file under .data, in its own session
  const temporalPort = await freePort();
  const cli = process.env.TEMPORAL_CLI_PATH ?? join(ROOT, '.tools/venv/bin/temporal');
  const temporal = spawn(cli, ['server', 'start-dev', '--db-filename', join(data, 'temporal.sqlite'), '--port', String(temporalPort), '--ip', '127.0.0.1', '--headless', '--log-level', 'error'], {
    cwd: copy, detached: true, stdio: 'ignore',
  });
  temporal.unref();
  try {
    await eventually(() => listening(temporalPort) || temporal.exitCode !== null, { timeoutMs: 60_000, what: 'the copy’s Temporal dev server' });
    assert.equal(temporal.exitCode, null, 'the dev server started');

    const r = run(copy, 'scripts/reset.sh', env);
    assert.equal(r.code, 0, r.out);
    assert.equal(existsSync(data), false, `.data is gone:\n${r.out}`);
    assert.equal(existsSync(pgdata), false, `the cluster ${pgdata} is gone:\n${r.out}`);
    assert.equal(await listening(pgPort), false, 'PostgreSQL stopped');
    assert.equal(await listening(redisPort), false, 'Redis stopped');
    await eventually(() => !alive(temporal.pid!), { timeoutMs: 10_000, what: `the dev server (pid ${temporal.pid}) gone:\n${r.out}` });
    assert.match(r.out, /master key went with the database/);

    // a second reset has nothing left to do
    const again = run(copy, 'scripts/reset.sh', env);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /nothing to reset/);
  } finally {
    if (alive(temporal.pid!)) process.kill(temporal.pid!, 'SIGKILL');
  }
}, 300_000);

test('with the database elsewhere (DATABASE_URL), the master key that sealed it is kept', async () => {
  const copy = throwawayCopy();
  const env = copyEnv({
    PGPORT_LOCAL: String(await freePort()), // not the suite's cluster: DATABASE_URL below is "elsewhere"
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
  });
  const ensured = run(copy, 'scripts/ensure.sh', env);
  assert.equal(ensured.code, 0, ensured.out);
  const data = join(copy, '.data');
  const key = readFileSync(join(data, 'webhook-secret-key'), 'utf8');
  assert.ok(key.length > 0);

  const r = run(copy, 'scripts/reset.sh', env);
  assert.equal(r.code, 0, r.out);
  assert.equal(readFileSync(join(data, 'webhook-secret-key'), 'utf8'), key, `the same key is kept:\n${r.out}`);
  assert.equal(existsSync(join(data, 'env')), false, 'everything else in .data went');
  assert.match(r.out, /kept the master key/);
  // the suite's database (the "elsewhere") was not touched
  execFileSync(process.execPath, ['-e', `const {Client}=require('pg');const c=new Client({connectionString:process.env.DATABASE_URL});c.connect().then(()=>c.query('SELECT 1')).then(()=>c.end())`], { cwd: ROOT, env: process.env });
}, 300_000);
