// `npm run test:faults` (also part of `npm test`): the fault run of docs/reliability.md. Under a create load
// of 12 careful clients (test/support/fault-load.ts) and 4 careful platform clients that take
// platform tickets through create, resolve and close (test/support/platform-fault-load.ts),
// the ticketing worker, the webhooks worker, the platform worker, the Temporal server,
// PostgreSQL and Redis are killed in turn and restarted ~10 s later. All of them are the
// test's own (test/support/fault-services.ts), never the shared ones; the webhooks worker
// (the one dispatcher of both APIs) delivers every `ticket.created` of /v1 to a verifying
// receiver on loopback, registered through POST /v1/webhooks, and every platform ticket
// event to a second one, a platform endpoint (registered with the webhook domain's command,
// what POST /platform/v1/webhooks runs).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource } from '../../db/data-source';
import { countPendingWorkflowStarts } from '../../db/repositories/workflow-starts';
import { createLogger } from '../../lib/logger';
import { startApi, type TestApi } from '../support/api';
import { countDeliveries, deliveredTicket, repeatsByFault } from '../support/fault-deliveries';
import { failuresOf } from '../support/careful-client';
import { assertPlatformSide } from '../support/platform-fault-assertions';
import { createLoad } from '../support/fault-load';
import { OwnPostgres, ownRedis, ownTemporal, startWorkersOn, stopFaultServices, workerProcess, type Restartable } from '../support/fault-services';
import { tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { createWebhook } from '../support/webhook-api';
import { TICKETING_QUEUE } from '../../workflows/ticket/contract';
import { startReceiver } from '../support/webhook-receiver';
import { setTimeout as sleep } from 'node:timers/promises';
import { oneFaultRunAtATime } from '../support/fault-run-lock';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { WEBHOOK_APIS } from '../../domain/webhooks/apis';
import { PLATFORM_QUEUE } from '../../workflows/platform-ticket/contract';
import { createPlatformLoad } from '../support/platform-fault-load';
import { countPlatformDeliveries, readPlatformDeliveryLog } from '../support/platform-fault-deliveries';
import { registerPlatformEndpoint } from '../support/register-platform-endpoint';

/**
 * The load: 12 careful clients. Each pauses 2 s between two creates, about 5-6
 * creates a second in all: what the ticketing worker triages as fast as it comes on 2
 * shared cores. At 0.3 s (about 30 a second) triage fell minutes behind and the run took
 * over 5 minutes (docs/reliability.md).
 */
const CLIENTS = 12;
const PAUSE_MS = 2000;
/** platform clients, each a create, a resolve and a close per ticket, 2 s apart: about 2 changes a second */
const PLATFORM_CLIENTS = 4;
const MAX_PLATFORM_TICKETS = 300;
/** the platform events the run's platform endpoint takes: every one a ticket change records */
const PLATFORM_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.resolved', 'ticket.closed'];
const DOWN_MS = 10_000;
const ANSWER_BOUND_MS = 10_000;
const MAX_CREATES = 1500; // bound in requests, beside the time bound of the phases
/** after the load: every workflow started, every ticket triaged, every delivery received */
const DRAIN_MS = 120_000;
/** how long a phase waits for the first delivery after its restart (printed, not asserted) */
const DELIVERY_PROBE_MS = 30_000;

let pg: OwnPostgres;
let redis: Restartable;
let temporal: Restartable;
let worker: Restartable;
let webhooksWorker: Restartable;
let platformWorker: Restartable;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let platformReceiver: Awaited<ReturnType<typeof startReceiver>>;
let tenant: PlatformTenant;
let platformEndpoint: { id: string; secret: string };
let api: TestApi;
let t: TenantWithPlayer;
let endpoint: { id: string; secret: string };


oneFaultRunAtATime('ticketing'); // first: its services start once no other fault run holds the cores
beforeAll(async () => {
  pg = new OwnPostgres();
  await pg.init();
  const ds = createDataSource(pg.url, 2, 0);
  await ds.initialize();
  await ds.runMigrations();
  await ds.destroy();
  redis = ownRedis();
  await redis.start();
  temporal = ownTemporal(join(mkdtempSync(join(tmpdir(), 'faults-temporal-')), 'temporal.sqlite'));
  await temporal.start();
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}`,
    TEMPORAL_SEARCH_ATTRIBUTES: 'off',
    RATE_LIMITS: 'starter=100000,growth=100000,scale=100000,enterprise=100000,platform-read=100000,platform-write=100000,platform-anonymous-ip=100000',
    IDEMPOTENCY_LEASE_SECONDS: '15',
    // the receiver listens on 127.0.0.1 (test only; never in production)
    WEBHOOK_ALLOW_LOOPBACK: '1',
  };
  process.env.IDEMPOTENCY_LEASE_SECONDS = '15';
  worker = workerProcess('ticketing', { ...env, LOG_LEVEL: 'info' });
  webhooksWorker = workerProcess('webhooks', { ...env, LOG_LEVEL: 'info' });
  platformWorker = workerProcess(PLATFORM_QUEUE, { ...env, LOG_LEVEL: 'info' });
  // a receiver that takes 0.2-0.6 s to answer, so that a kill finds deliveries in flight
  receiver = await startReceiver({ secret: () => endpoint.secret, answerAfterMs: () => 200 + Math.random() * 400 });
  // the platform endpoint's: it verifies the signatures its API sends (domain/webhooks/apis.ts)
  platformReceiver = await startReceiver({ secret: () => platformEndpoint.secret, answerAfterMs: () => 200 + Math.random() * 400, schemes: WEBHOOK_APIS.platform.signatures });
  // hundreds of 503s (and failed key lookups) are logged during the outages; a 500 fails the test anyway
  [api] = await Promise.all([startApi(env, { logger: createLogger({ level: 'fatal' }) }), startWorkersOn(temporal, [worker, webhooksWorker, platformWorker])]);
  t = await tenantWithPlayer(api);
  endpoint = await createWebhook(api, t.token, { workspaceId: t.workspace.id, url: receiver.url, events: ['ticket.created'] });
  tenant = await createPlatformTenant(api.deps.db, { name: `Faults ${process.pid}` });
  platformEndpoint = await registerPlatformEndpoint(api.deps.db, api.deps.config, { workspaceId: tenant.workspaceId, url: platformReceiver.url, events: PLATFORM_EVENTS });
}, 120_000);

afterAll(async () => {
  await stopFaultServices({ api, processes: [worker, webhooksWorker, platformWorker, temporal, redis], pg });
  await receiver?.stop();
  await platformReceiver?.stop();
});

/** Where a run is, at once on stderr (jest holds console output until the file ends): a stall shows where it stands. */
const progress = (what: string) => process.stderr.write(`[faults ${new Date().toISOString()}] ${what}\n`);

test('kill each dependency in turn under a create load: nothing lost or doubled, one signed delivery per ticket', async () => {
  const load = createLoad({
    baseUrl: api.baseUrl,
    token: t.token,
    workspaceId: t.workspace.id,
    playerId: t.player.playerId,
    answerBoundMs: ANSWER_BOUND_MS,
    pauseMs: PAUSE_MS,
    maxCreates: MAX_CREATES,
  });
  const platformLoad = createPlatformLoad({ baseUrl: api.baseUrl, tenant, answerBoundMs: ANSWER_BOUND_MS, pauseMs: PAUSE_MS, maxTickets: MAX_PLATFORM_TICKETS });
  // a client that meets an answer it must not get fails the run; the others stop with it
  const running = Promise.all([load.run(CLIENTS), platformLoad.run(PLATFORM_CLIENTS)]).catch((err) => {
    load.stop();
    platformLoad.stop();
    throw err;
  });
  const workers = [worker, webhooksWorker, platformWorker];
  const faults: Array<[string, () => void | Promise<void>, () => Promise<void>]> = [
    ['ticketing worker (SIGKILL)', () => worker.kill9(), () => worker.start()],
    // the two workers of the platform events' way, at once: one phase fewer (the run stays
    // short), and the events recorded before the kill wait for the dispatcher while the
    // platform changes are 503s
    [
      'webhooks and platform workers (SIGKILL)',
      () => {
        webhooksWorker.kill9();
        platformWorker.kill9();
      },
      () => Promise.all([webhooksWorker.start(), platformWorker.start()]).then(() => undefined),
    ],
    ['Temporal dev server (SIGKILL)', () => temporal.kill9(), () => temporal.start()],
    ['PostgreSQL (pg_ctl stop -m immediate)', () => pg.stopImmediate(), () => pg.start()],
    ['Redis (SIGKILL)', () => redis.kill9(), () => redis.start()],
  ];
  const table: Array<{ fault: string; 'first 201 (s)': number; 'its delivery (s)': number | string }> = [];
  const extraRestarts: string[] = [];
  const killedAt: Array<{ fault: string; at: number }> = [];
  await sleep(2000);
  for (const [name, kill, restart] of faults) {
    progress(`kill: ${name}`);
    killedAt.push({ fault: name, at: Date.now() });
    await kill();
    await sleep(DOWN_MS);
    await restart();
    const restartedAt = Date.now();
    progress(`restarted: ${name}`);
    // a worker may have given up while Temporal or PostgreSQL was down: a supervisor
    // (npm start) restarts it, so does this test
    for (const w of workers.filter((w) => !w.running)) extraRestarts.push(`${w.name} after ${name}`);
    await Promise.all(workers.filter((w) => !w.running).map((w) => w.start()));
    const probe = await load.probe(restartedAt);
    const deliveredBy = Date.now() + DELIVERY_PROBE_MS;
    while (!deliveredTicket(receiver.accepted, probe.id) && Date.now() < deliveredBy) await sleep(100);
    const delivered = deliveredTicket(receiver.accepted, probe.id);
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    table.push({
      fault: name,
      'first 201 (s)': seconds(probe.ms),
      'its delivery (s)': delivered ? seconds(Date.now() - restartedAt) : `> ${seconds(deliveredBy - restartedAt)}`,
    });
    await sleep(Math.max(0, restartedAt + 2000 - Date.now()));
  }
  load.stop();
  platformLoad.stop();
  progress('load stopping');
  await running;
  progress('load stopped; draining');
  const loadEndedAt = Date.now();
  await Promise.all(workers.filter((w) => !w.running).map((w) => w.start()));
  // the time to recover after each restart: until a new create is answered 201, and until
  // that ticket's ticket.created delivery has reached the receiver
  console.table(table);
  if (extraRestarts.length) console.log(`workers that gave up during an outage and were started again: ${extraRestarts.join(', ')}`);

  const { creates } = load;
  const db = api.deps.db;
  const acknowledged = creates.filter((c) => c.answer?.id);
  // every retrying client answered
  assert.equal(acknowledged.length, creates.length);
  // 0 acknowledged creates lost, 0 duplicated
  const rows = (await db.query(`SELECT id, title FROM tickets WHERE workspace_id = $1 AND title LIKE 'faults %'`, [t.workspace.id])).rows;
  const byTitle = new Map<string, string[]>();
  for (const r of rows) byTitle.set(r.title, [...(byTitle.get(r.title) ?? []), r.id]);
  for (const c of acknowledged) assert.deepEqual(byTitle.get(c.body.title), [c.answer!.id], `create ${c.key}`);
  assert.equal(rows.length, acknowledged.length);
  // every failure a 503 in the envelope with Retry-After (or a 409 in progress), within the bound
  const failures = failuresOf(creates);
  for (const f of failures) {
    assert.ok(f.status === 503 || f.status === 409 || f.status === 'network', `a failure answered ${f.status}`);
    if (f.status === 503) assert.ok(f.envelope && f.retryAfter, 'a 503 without the envelope or Retry-After');
    assert.notEqual(f.status, 'timeout', 'a request not answered within 10 s');
  }
  // 0 keys left in progress: every key was retried until answered
  const inProgress = (await db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE status_code IS NULL AND key LIKE 'faults-%'`)).rows[0].n;
  assert.equal(inProgress, 0);
  // one ticket.created event per ticket (the probes' tickets included)
  const all = (await db.query(`SELECT id FROM tickets WHERE workspace_id = $1`, [t.workspace.id])).rows.map((r) => r.id as string);
  const events = (await db.query(`SELECT subject_id, count(*)::int AS n FROM events WHERE type = 'ticket.created' AND workspace_id = $1 GROUP BY 1`, [t.workspace.id])).rows;
  assert.deepEqual(events.map((e) => e.subject_id).sort(), [...all].sort());
  for (const e of events) assert.equal(e.n, 1, `${e.n} ticket.created events for ${e.subject_id}`);

  // every ticket's workflow runs (the outbox drained), triage is on every ticket, and
  // every ticket's delivery has been received
  const deadline = Date.now() + DRAIN_MS;
  for (;;) {
    const pending = await countPendingWorkflowStarts(db, TICKETING_QUEUE);
    const untriaged = (await db.query(`SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND NOT ai_triaged`, [t.workspace.id])).rows[0].n;
    const undelivered = countDeliveries(receiver.accepted, all).missing.length;
    const undispatched = (await db.query(`SELECT count(*)::int AS n FROM events WHERE dispatched_at IS NULL`)).rows[0].n;
    const platformPending = await countPendingWorkflowStarts(db, PLATFORM_QUEUE);
    const log = await readPlatformDeliveryLog(db, tenant.workspaceId, { id: platformEndpoint.id, events: PLATFORM_EVENTS });
    const platformUndelivered = countPlatformDeliveries(platformReceiver.accepted, log.events, log.deliveries, platformLoad.ops).missing.length;
    if (pending === 0 && untriaged === 0 && undelivered === 0 && undispatched === 0 && platformPending === 0 && platformUndelivered === 0) break;
    if (Date.now() > deadline) {
      const stuck = (await db.query(`SELECT id, batch_id, claimed_at, now() AS now FROM events WHERE dispatched_at IS NULL`)).rows;
      assert.fail(
        `${pending} workflows not started, ${untriaged} tickets untriaged, ${undelivered} tickets without a delivery, ${undispatched} events not dispatched ${JSON.stringify(stuck)}, ` +
          `${platformPending} platform workflows not started, ${platformUndelivered} platform events without a received delivery\n` +
          `[worker:ticketing]\n${worker.output()}\n[worker:webhooks]\n${webhooksWorker.output()}\n[worker:platform]\n${platformWorker.output()}`,
      );
    }
    await sleep(500);
  }
  console.log(`drained ${Math.round((Date.now() - loadEndedAt) / 1000)} s after the load's last answer`);

  // one signed ticket.created delivery per ticket: one delivery id each, every request of
  // it verified with the endpoint's secret (the receiver answered 401 to anything else)
  // and the same bytes; a repeat of an attempt after a kill is the same delivery
  const count = countDeliveries(receiver.accepted, all);
  assert.deepEqual(receiver.rejected.map((d) => d.id), [], 'requests that failed verification');
  assert.deepEqual(count.missing, []);
  assert.deepEqual(count.doubled, []);
  assert.deepEqual(count.inconsistent, []);
  // and the delivery log agrees: one row per ticket, the one received, succeeded
  const logged = (
    await db.query(
      `SELECT d.id, e.subject_id, d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.endpoint_id = $1`,
      [endpoint.id],
    )
  ).rows;
  assert.equal(logged.length, all.length);
  for (const r of logged) {
    assert.equal(r.id, count.deliveryOf.get(r.subject_id), `the delivery of ${r.subject_id}`);
    assert.equal(r.status, 'succeeded', `${r.id} is ${r.status}`);
  }
  console.log(
    `${creates.length} creates by ${CLIENTS} clients, ${failures.length} failed attempts (${failures.filter((f) => f.status === 503).length} × 503); ` +
      `${all.length} tickets, ${all.length} deliveries received (one each); ${count.repeats} repeated requests of ${count.repeated.size} deliveries ` +
      `(the same id and bytes again), by the fault before them: ${JSON.stringify(repeatsByFault(count.repeated, killedAt))}`,
  );

  // the platform API's side (test/support/platform-fault-assertions.ts)
  await assertPlatformSide(db, {
    workspaceId: tenant.workspaceId,
    endpointId: platformEndpoint.id,
    events: PLATFORM_EVENTS,
    receiver: platformReceiver,
    ops: platformLoad.ops,
    clients: PLATFORM_CLIENTS,
    killedAt,
  });

  // 0 workflows without a row (and no row without its workflow)
  for (const id of all) await api.deps.temporal.workflow.getHandle(`ticket/${id}`).describe();
  const workflows: string[] = [];
  for await (const wf of api.deps.temporal.workflow.list({ query: `WorkflowType = 'ticketWorkflow'` })) workflows.push(wf.workflowId);
  const allIds = new Set(all);
  for (const w of workflows) assert.ok(allIds.has(w.replace(/^ticket\//, '')), `workflow ${w} has no row`);
}, 420_000);
