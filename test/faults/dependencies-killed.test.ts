// `npm run test:faults` (also part of `npm test`): issue 18's fault run. Under a create
// load of careful clients (a unique Idempotency-Key per create, the same key retried on
// network errors, 5xx, 429 and 409-in-progress), the ticketing worker, the Temporal
// server, PostgreSQL and Redis are killed in turn and restarted ~10 s later. All of them
// are the test's own (test/support/fault-services.ts), never the shared ones.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource } from '../../db/data-source';
import { startApi, type TestApi } from '../support/api';
import { freePort, OwnPostgres, ownRedis, ownTemporal, workerProcess, type Restartable } from '../support/fault-services';
import { tenantWithPlayer, type Tenant } from '../support/tickets';

const CLIENTS = 4;
const DOWN_MS = 10_000;
const ANSWER_BOUND_MS = 10_000;
const MAX_CREATES = 1500; // bound in requests, beside the time bound of the phases

let pg: OwnPostgres;
let redis: Restartable;
let temporal: Restartable;
let worker: Restartable;
let api: TestApi;
let t: Tenant;
let env: NodeJS.ProcessEnv;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  pg = new OwnPostgres();
  await pg.init();
  const ds = createDataSource(pg.url, 2, 0);
  await ds.initialize();
  await ds.runMigrations();
  await ds.destroy();
  const redisPort = await freePort();
  redis = ownRedis(redisPort);
  await redis.start();
  const temporalPort = await freePort();
  temporal = ownTemporal(temporalPort, join(mkdtempSync(join(tmpdir(), 'faults-temporal-')), 'temporal.sqlite'));
  await temporal.start();
  env = {
    DATABASE_URL: pg.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_SEARCH_ATTRIBUTES: 'off',
    RATE_LIMITS: 'starter=100000,growth=100000,scale=100000,enterprise=100000',
    IDEMPOTENCY_LEASE_SECONDS: '15',
  };
  process.env.IDEMPOTENCY_LEASE_SECONDS = '15';
  worker = workerProcess('ticketing', { ...env, LOG_LEVEL: 'info' });
  await worker.start();
  api = await startApi(env);
  t = await tenantWithPlayer(api);
}, 120_000);

afterAll(async () => {
  await api?.stop().catch(() => undefined);
  await worker?.stop();
  await temporal?.stop();
  await redis?.stop();
  pg?.destroy();
});

interface Attempt {
  status: number | 'network' | 'timeout';
  ms: number;
  envelope: boolean;
  retryAfter: boolean;
}
interface Create {
  key: string;
  title: string;
  id?: string;
  attempts: Attempt[];
}

const creates: Create[] = [];
let loadOn = true;

async function attempt(c: Create): Promise<Attempt & { body?: any }> {
  const started = Date.now();
  try {
    const res = await fetch(`${api.baseUrl}/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', 'idempotency-key': c.key },
      body: JSON.stringify({ workspaceId: t.workspace.id, playerId: t.player.playerId, title: c.title, body: 'Fault run ticket' }),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS + 2000),
    });
    const body: any = await res.json().catch(() => undefined);
    return { status: res.status, ms: Date.now() - started, envelope: !!body?.error?.code, retryAfter: res.headers.has('retry-after'), body };
  } catch (err: any) {
    const status = err?.name === 'TimeoutError' ? 'timeout' : 'network';
    return { status, ms: Date.now() - started, envelope: false, retryAfter: false };
  }
}

/** One careful client: a new key per create, the same key retried until it is answered. */
async function client(n: number): Promise<void> {
  for (let i = 0; loadOn && creates.length < MAX_CREATES; i++) {
    const c: Create = { key: `faults-${n}-${i}`, title: `faults ${n}/${i}`, attempts: [] };
    creates.push(c);
    for (;;) {
      const a = await attempt(c);
      c.attempts.push(a);
      if (a.status === 201) {
        c.id = a.body.id;
        break;
      }
      const retryable = typeof a.status !== 'number' || a.status >= 500 || a.status === 429 || (a.status === 409 && a.body?.error?.code === 'idempotency_request_in_progress');
      if (!retryable) throw new Error(`create ${c.key} answered ${a.status}: ${JSON.stringify(a.body)}`);
      await sleep(250);
    }
    await sleep(300); // a steady load through every phase, bounded by MAX_CREATES
  }
}

/** From the restart until a new create (a key of its own) is answered 201. */
async function recoveryMs(since: number): Promise<number> {
  for (let i = 0; ; i++) {
    const a = await attempt({ key: `probe-${since}-${i}`, title: `probe ${since}/${i}`, attempts: [] });
    if (a.status === 201) return Date.now() - since;
    await sleep(200);
  }
}

test('kill the ticketing worker, Temporal, PostgreSQL and Redis in turn under a create load', async () => {
  const load = Array.from({ length: CLIENTS }, (_, n) => client(n));
  const faults: Array<[string, () => void | Promise<void>, () => Promise<void>]> = [
    ['ticketing worker (SIGKILL)', () => worker.kill9(), () => worker.start()],
    ['Temporal dev server (SIGKILL)', () => temporal.kill9(), () => temporal.start()],
    ['PostgreSQL (pg_ctl stop -m immediate)', () => pg.stopImmediate(), () => pg.start()],
    ['Redis (SIGKILL)', () => redis.kill9(), () => redis.start()],
  ];
  const table: Array<{ fault: string; recoverySeconds: number }> = [];
  await sleep(2000);
  for (const [name, kill, restart] of faults) {
    await kill();
    await sleep(DOWN_MS);
    await restart();
    const restartedAt = Date.now();
    // the worker may have given up while Temporal or PostgreSQL was down: a supervisor
    // (npm start) restarts it, so does this test
    if (!worker.running) await worker.start();
    table.push({ fault: name, recoverySeconds: Math.round((await recoveryMs(restartedAt)) / 100) / 10 });
    await sleep(2000);
  }
  loadOn = false;
  await Promise.all(load);
  if (!worker.running) await worker.start();
  console.table(table);

  const db = api.deps.db;
  const acknowledged = creates.filter((c) => c.id);
  // every retrying client answered
  assert.equal(acknowledged.length, creates.length);
  // 0 acknowledged creates lost, 0 duplicated
  const rows = (await db.query(`SELECT id, title FROM tickets WHERE workspace_id = $1 AND title LIKE 'faults %'`, [t.workspace.id])).rows;
  const byTitle = new Map<string, string[]>();
  for (const r of rows) byTitle.set(r.title, [...(byTitle.get(r.title) ?? []), r.id]);
  for (const c of acknowledged) assert.deepEqual(byTitle.get(c.title), [c.id], `create ${c.key}`);
  assert.equal(rows.length, acknowledged.length);
  // every failure a 503 in the envelope with Retry-After (or a 409 in progress), within the bound
  const failures = creates.flatMap((c) => c.attempts).filter((a) => a.status !== 201);
  for (const f of failures) {
    assert.ok(f.status === 503 || f.status === 409 || f.status === 'network', `a failure answered ${f.status}`);
    if (f.status === 503) assert.ok(f.envelope && f.retryAfter, 'a 503 without the envelope or Retry-After');
    assert.notEqual(f.status, 'timeout', 'a request not answered within 10 s');
  }
  console.log(`${creates.length} creates, ${failures.length} failed attempts (${failures.filter((f) => f.status === 503).length} × 503)`);
  // 0 keys left in progress: every key was retried until answered
  const inProgress = (await db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE status_code IS NULL AND key LIKE 'faults-%'`)).rows[0].n;
  assert.equal(inProgress, 0);
  // one ticket.created event per ticket
  const events = (await db.query(`SELECT subject_id, count(*)::int AS n FROM events WHERE type = 'ticket.created' AND workspace_id = $1 GROUP BY 1`, [t.workspace.id])).rows;
  const ids = new Set(rows.map((r) => r.id));
  for (const e of events.filter((e) => ids.has(e.subject_id))) assert.equal(e.n, 1);
  // every ticket's workflow runs (the outbox drained), and triage is on every ticket
  const deadline = Date.now() + 90_000;
  for (;;) {
    const pending = (await db.query('SELECT count(*)::int AS n FROM ticket_workflow_starts')).rows[0].n;
    const untriaged = (await db.query(`SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND NOT ai_triaged`, [t.workspace.id])).rows[0].n;
    if (pending === 0 && untriaged === 0) break;
    if (Date.now() > deadline) assert.fail(`${pending} workflows not started, ${untriaged} tickets untriaged\n${worker.output()}`);
    await sleep(500);
  }
  // 0 workflows without a row (and no row without its workflow)
  const all = (await db.query(`SELECT id FROM tickets WHERE workspace_id = $1`, [t.workspace.id])).rows.map((r) => r.id as string);
  for (const id of all) await api.deps.temporal.workflow.getHandle(`ticket/${id}`).describe();
  const workflows: string[] = [];
  for await (const wf of api.deps.temporal.workflow.list({ query: `WorkflowType = 'ticketWorkflow'` })) workflows.push(wf.workflowId);
  const allIds = new Set(all);
  for (const w of workflows) assert.ok(allIds.has(w.replace(/^ticket\//, '')), `workflow ${w} has no row`);
}, 240_000);
