// `npm run test:faults` (also part of `npm test`): the platform worker's fault run, one
// fault run at a time (test/support/fault-run-lock.ts).
//
// Under a load of careful clients that create platform tickets (POST /platform/v1/tickets
// with an Idempotency-Key, retried with the same key until answered) and, for six of the
// eight, then change each one (PATCH, retried with the same body until answered), the
// `platform` worker process
// (its workflows, activities and the workflow-start dispatcher of its queue) is killed
// with SIGKILL twice and started again 8 s later. Everything is the test's own
// (test/support/fault-services.ts): PostgreSQL, Redis, the Temporal dev server and the
// worker, never the shared ones, whose `platform` worker would otherwise take the work.
//
// What must hold: every acknowledged create exists exactly once and has its workflow;
// every acknowledged change is in the row (through the workflow: its version moved on and
// its ticket.updated event is there); no workflow without a row; every failed attempt is a
// 503 in the platform envelope with Retry-After (or a 409 "in progress", or a dropped
// connection), answered within 10 s. While the worker is down creates keep being answered
// 201 (the create does not wait on Temporal) and changes are 503s until it is back.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource } from '../../db/data-source';
import { countPendingWorkflowStarts } from '../../db/repositories/workflow-starts';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { createLogger } from '../../lib/logger';
import { PLATFORM_QUEUE, platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { startApi, type TestApi } from '../support/api';
import { carefulClient, failuresOf, type Attempt, type Operation } from '../support/careful-client';
import { OwnPostgres, ownRedis, ownTemporal, startWorkersOn, stopFaultServices, workerProcess, type Restartable } from '../support/fault-services';
import { eventually } from '../support/eventually';
import { oneFaultRunAtATime } from '../support/fault-run-lock';

/** clients that create and then change each ticket */
const CLIENTS = 6;
/** clients that only create: they show creates answered while the worker is down */
const CREATE_ONLY_CLIENTS = 2;
const PAUSE_MS = 300;
const DOWN_MS = 8_000;
const KILLS = 2;
const ANSWER_BOUND_MS = 10_000;
const MAX_CREATES = 600;
const DRAIN_MS = 90_000;

let pg: OwnPostgres;
let redis: Restartable;
let temporal: Restartable;
let worker: Restartable;
let api: TestApi;
let tenant: PlatformTenant;

oneFaultRunAtATime('platform');
beforeAll(async () => {
  pg = new OwnPostgres();
  await pg.init();
  const ds = createDataSource(pg.url, 2, 0);
  await ds.initialize();
  await ds.runMigrations();
  await ds.destroy();
  redis = ownRedis();
  await redis.start();
  temporal = ownTemporal(join(mkdtempSync(join(tmpdir(), 'faults-platform-temporal-')), 'temporal.sqlite'));
  await temporal.start();
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}`,
    TEMPORAL_SEARCH_ATTRIBUTES: 'off',
    RATE_LIMITS: 'platform-read=100000,platform-write=100000,platform-anonymous-ip=100000,auth-failures=100000',
    IDEMPOTENCY_LEASE_SECONDS: '15',
  };
  process.env.IDEMPOTENCY_LEASE_SECONDS = '15';
  worker = workerProcess(PLATFORM_QUEUE, { ...env, LOG_LEVEL: 'info' });
  // hundreds of 503s are logged while the worker is down; a 500 fails the test anyway
  [api] = await Promise.all([startApi(env, { logger: createLogger({ level: 'fatal' }) }), startWorkersOn(temporal, [worker])]);
  tenant = await createPlatformTenant(api.deps.db, { name: `Faults ${process.pid}` });
}, 120_000);

afterAll(async () => {
  await stopFaultServices({ api, processes: [worker, temporal, redis], pg });
});

/** A PATCH retried with the same body until it is answered 2xx (a change is idempotent in effect: it sets values). */
async function patchUntilAnswered(op: Operation): Promise<void> {
  for (;;) {
    const at = Date.now();
    let a: Attempt;
    let body: any;
    try {
      const res = await fetch(api.baseUrl + op.path, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${tenant.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(op.body),
        signal: AbortSignal.timeout(ANSWER_BOUND_MS + 2000),
      });
      body = await res.json().catch(() => undefined);
      a = { status: res.status, at, ms: Date.now() - at, envelope: !!body?.error?.code, retryAfter: res.headers.has('retry-after') };
    } catch (err: any) {
      a = { status: err?.name === 'TimeoutError' ? 'timeout' : 'network', at, ms: Date.now() - at, envelope: false, retryAfter: false };
    }
    op.attempts.push(a);
    if (a.status === 200) {
      op.answer = body;
      return;
    }
    if (typeof a.status === 'number' && a.status < 500 && a.status !== 429) throw new Error(`${op.path} answered ${a.status}: ${JSON.stringify(body)}`);
    await sleep(250);
  }
}

test('the platform worker killed twice under ticket creates and changes: nothing acknowledged lost or doubled, every failure a 503 within 10 s', async () => {
  const client = carefulClient({
    baseUrl: api.baseUrl,
    headers: { authorization: `Bearer ${tenant.adminToken}` },
    isEnvelope: (body) => !!body?.error?.code,
    inProgress: (body) => body?.error?.code === 'idempotency_request_in_progress' || /still in progress/.test(body?.error?.message ?? ''),
    answerBoundMs: ANSWER_BOUND_MS,
    retryDelayMs: 250,
  });
  const creates: Array<Operation<{ id: string }> & { subject: string }> = [];
  const changes: Operation[] = [];
  let on = true;
  const loop = async (n: number, change: boolean) => {
    for (let i = 0; on && creates.length < MAX_CREATES; i++) {
      const subject = `faults ${n}/${i}`;
      const c: Operation<{ id: string }> & { subject: string } = { path: '/platform/v1/tickets', key: `faults-${n}-${i}`, subject, body: { subject, channel_id: tenant.channelIds.api, contact_email: `p${n}.${i}@example.com` }, attempts: [] };
      creates.push(c);
      const ticket = await client.run(c);
      if (!change) {
        await sleep(PAUSE_MS);
        continue;
      }
      const op: Operation = { path: `/platform/v1/tickets/${ticket.id}`, key: ticket.id, body: { status: 'pending', priority: 'high', tags: ['faults'] }, attempts: [] };
      changes.push(op);
      await patchUntilAnswered(op);
      await sleep(PAUSE_MS);
    }
  };
  const running = Promise.all(Array.from({ length: CLIENTS + CREATE_ONLY_CLIENTS }, (_, n) => loop(n, n < CLIENTS)));

  const phases: Array<{ phase: string; 'creates answered while down': number; 'first change answered after restart (s)': number }> = [];
  await sleep(3000);
  for (let k = 1; k <= KILLS; k++) {
    const answered = () => creates.filter((c) => c.answer).length;
    const before = answered();
    worker.kill9();
    await sleep(DOWN_MS);
    const whileDown = answered() - before;
    await worker.start();
    const restartedAt = Date.now();
    const changed = changes.filter((c) => c.answer).length;
    while (changes.filter((c) => c.answer).length === changed && Date.now() - restartedAt < 30_000) await sleep(100);
    phases.push({ phase: `kill ${k}`, 'creates answered while down': whileDown, 'first change answered after restart (s)': Math.round((Date.now() - restartedAt) / 100) / 10 });
    await sleep(3000);
  }
  on = false;
  await running;
  console.table(phases);
  // the create path never waits on the worker: creates went on while it was down
  for (const p of phases) assert.ok(p['creates answered while down'] > 0, `no create answered while the worker was down (${p.phase})`);

  const db = api.deps.db;
  // every client's operations answered
  assert.ok(creates.every((c) => c.answer?.id));
  assert.ok(changes.length > 0 && changes.every((c) => c.answer));
  const changed = new Set(changes.map((c) => c.key));

  // 0 acknowledged creates lost, 0 doubled
  const { rows } = await db.query(`SELECT id, subject, status, priority, tags, version FROM platform_tickets WHERE workspace_id = $1`, [tenant.workspaceId]);
  const bySubject = new Map<string, string[]>();
  for (const r of rows) bySubject.set(r.subject, [...(bySubject.get(r.subject) ?? []), r.id]);
  for (const c of creates) assert.deepEqual(bySubject.get(c.subject), [c.answer!.id], `create ${c.key}`);
  assert.equal(rows.length, creates.length);
  // every acknowledged change applied, by the workflow (a step after the create, its event recorded); the others untouched
  for (const r of rows) {
    if (changed.has(r.id)) {
      assert.deepEqual([r.status, r.priority, r.tags], ['pending', 'high', ['faults']], r.id);
      assert.ok(r.version >= 2, `${r.id} at version ${r.version}`);
    } else assert.deepEqual([r.status, r.priority, r.version], ['open', 'normal', 1], r.id);
  }
  const { rows: events } = await db.query(
    `SELECT subject_id, count(*) FILTER (WHERE type = 'ticket.created')::int AS created, count(*) FILTER (WHERE type = 'ticket.updated')::int AS updated
       FROM events WHERE workspace_id = $1 AND api = 'platform' GROUP BY subject_id`,
    [tenant.workspaceId],
  );
  assert.equal(events.length, rows.length);
  for (const e of events) {
    assert.equal(e.created, 1, `${e.subject_id}: ${e.created} ticket.created`);
    assert.equal(e.updated >= 1, changed.has(e.subject_id), `${e.subject_id}: ${e.updated} ticket.updated`);
  }

  // every failure a 503 in the envelope with Retry-After (or in progress, or a dropped connection), within 10 s
  const failures = [...failuresOf(creates), ...failuresOf(changes)];
  for (const f of failures) {
    assert.ok(f.status === 503 || f.status === 409 || f.status === 'network', `a failure answered ${f.status}`);
    if (f.status === 503) assert.ok(f.envelope && f.retryAfter, 'a 503 without the envelope or Retry-After');
    assert.ok(f.ms <= ANSWER_BOUND_MS, `a failure answered after ${f.ms} ms`);
  }
  assert.ok(failuresOf(changes).some((f) => f.status === 503), 'the changes sent while the worker was down were 503s');
  const inProgress = (await db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE status_code IS NULL AND key LIKE 'faults-%'`)).rows[0].n;
  assert.equal(inProgress, 0);

  // the outbox drains, and every ticket has its workflow; no workflow without its ticket
  const deadline = Date.now() + DRAIN_MS;
  while ((await countPendingWorkflowStarts(db, PLATFORM_QUEUE)) > 0) {
    assert.ok(Date.now() < deadline, `workflow starts still pending\n${worker.output()}`);
    await sleep(500);
  }
  for (const r of rows) assert.equal((await api.deps.temporal.workflow.getHandle(platformTicketWorkflowId(r.id)).describe()).status.name, 'RUNNING', r.id);
  const ids = new Set(rows.map((r) => r.id as string));
  // (the visibility store catches up with the starts a moment later)
  const listed = await eventually(async () => {
    const found: string[] = [];
    for await (const wf of api.deps.temporal.workflow.list({ query: `WorkflowType = 'platformTicketWorkflow'` })) found.push(wf.workflowId);
    return found.length >= rows.length && found;
  }, { timeoutMs: 30_000, everyMs: 500, what: 'every ticket workflow listed' });
  for (const w of listed) assert.ok(ids.has(w.replace(/^platform-ticket\//, '')), `workflow ${w} has no row`);
  assert.equal(listed.length, rows.length);
  console.log(
    `${creates.length} tickets created (${changes.length} of them changed) by ${CLIENTS + CREATE_ONLY_CLIENTS} clients across ${KILLS} kills of the platform worker: ` +
      `${failuresOf(creates).length} failed create attempts, ${failuresOf(changes).length} failed change attempts ` +
      `(${failures.filter((f) => f.status === 503).length} × 503, slowest ${Math.max(0, ...failures.map((f) => f.ms))} ms); 0 lost, 0 doubled`,
  );
}, 300_000);
