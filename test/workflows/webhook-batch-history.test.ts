// How big a webhook batch's history gets, measured on the time-skipping server with the
// real activities: the largest batch the dispatcher can make (50 events × 20 endpoints =
// 1,000 deliveries), every attempt failing, on the platform schedule (5 attempts, then the
// pause step), must keep every run under Temporal's 10,240-event warning. docs/webhooks.md
// ("Batch size and history") quotes the figures this prints.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createPauseActivities } from '../../activities/webhooks/pause';
import { NO_EMAIL } from '../../lib/email/no-email';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { webhookBatchWorkflowId, type RetrySchedule } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/webhook-batch.workflow';
import { WORKER_TUNING } from '../../workers/run-queue-worker';
import { createTenant } from '../support/factories';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { insertEndpoint, insertTicketCreatedDeliveries } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

const TASK_QUEUE = 'webhook-batch-history-test';
/** Temporal's history warning (the hard limit is 51,200 events) */
const HISTORY_WARNING = 10_240;
/** the dispatcher's claim (workers/webhook-dispatcher.ts) × the API's endpoints per workspace */
const EVENTS_PER_CLAIM = 50;
const ENDPOINTS_PER_WORKSPACE = 20;
const key = randomBytes(32);
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let healthy = false;

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 10);
  receiver = await startReceiver({ answer: () => (healthy ? 200 : 500) });
  env = await timeSkippingEnv();
  const agents = { http: createSafeHttpAgent({ allowLoopback: true, keepAlive: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: {
      ...createWebhookActivities({ db, secretKey: key, agents }),
      ...createPauseActivities({ db, mailer: NO_EMAIL }),
    },
    ...WORKER_TUNING, // the shipped worker's capacity: local activities per round run as they would there
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await receiver?.stop();
  await db?.close();
});

/** `endpoints` endpoints in one workspace, each with `perEndpoint` pending deliveries (ids endpoint by endpoint). */
async function seedBatch(endpoints: number, perEndpoint: number): Promise<string[]> {
  const { workspace } = await createTenant(db);
  const endpointIds: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    endpointIds.push((await insertEndpoint(db, { workspaceId: workspace.id, url: receiver.url, events: ['ticket.created'], key })).id);
  }
  const events = await insertTicketCreatedDeliveries(db, { workspaceId: workspace.id, endpointIds, count: perEndpoint });
  return endpointIds.flatMap((_, j) => events.map((e) => e.deliveries[j].deliveryId));
}

interface RunSize {
  events: number;
  bytes: number;
}

/** Runs one batch to its end; the size of every run of its continue-as-new chain. */
async function runBatch(deliveryIds: string[], schedule: RetrySchedule, opts: { roundInOneActivity?: true } = {}): Promise<RunSize[]> {
  const batchId = newId('whb');
  const workflowId = webhookBatchWorkflowId(batchId);
  const handle = await env.client.workflow.start(webhookBatchWorkflow, {
    args: [{ batchId, deliveryIds, schedule, ...opts }],
    workflowId,
    taskQueue: TASK_QUEUE,
  });
  await handle.result();
  const runs: RunSize[] = [];
  for (let runId: string | undefined = handle.firstExecutionRunId; runId; ) {
    const history: Awaited<ReturnType<typeof handle.fetchHistory>> = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    runs.push({ events: events.length, bytes: JSON.stringify(history).length });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return runs;
}

const sizes = (runs: RunSize[], deliveries: number) =>
  `${runs.length} run(s): ${runs.map((r) => `${r.events} events (${(r.events / deliveries).toFixed(2)}/delivery, ${Math.round(r.bytes / 1024)} KiB)`).join(', ')}`;

test('the largest batch, every attempt failing: each run of its history stays far under the 10 k-event warning', async () => {
  const deliveries = EVENTS_PER_CLAIM * ENDPOINTS_PER_WORKSPACE;
  const ids = await seedBatch(ENDPOINTS_PER_WORKSPACE, EVENTS_PER_CLAIM);
  healthy = false;
  const runs = await runBatch(ids, PLATFORM_RETRY_SCHEDULE);
  console.log(`${deliveries} deliveries failing 5 times, then paused: ${sizes(runs, deliveries)}`);
  assert.equal(runs.length, PLATFORM_RETRY_SCHEDULE.delaysMs.length, 'one run per attempt round');
  // one marker per delivery per round, plus a bounded number of workflow tasks, a timer
  // and (last round) the pause activity
  for (const r of runs) {
    assert.ok(r.events <= deliveries + 60, `a run has ${r.events} events for ${deliveries} deliveries`);
    assert.ok(r.events < HISTORY_WARNING);
  }
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ANY($1::text[])`, [ids]);
  assert.equal(rows[0].n, 5 * deliveries, 'every attempt was made and recorded');
  const paused = await db.query(`SELECT count(*)::int AS n FROM webhook_endpoints e WHERE NOT active AND id IN (SELECT endpoint_id FROM webhook_deliveries WHERE id = ANY($1::text[]))`, [ids]);
  assert.equal(paused.rows[0].n, ENDPOINTS_PER_WORKSPACE);
});

test('the largest batch as the dispatcher starts it (a round in one activity), every attempt failing: each run holds a handful of events', async () => {
  const deliveries = EVENTS_PER_CLAIM * ENDPOINTS_PER_WORKSPACE;
  const ids = await seedBatch(ENDPOINTS_PER_WORKSPACE, EVENTS_PER_CLAIM);
  healthy = false;
  const runs = await runBatch(ids, PLATFORM_RETRY_SCHEDULE, { roundInOneActivity: true });
  console.log(`${deliveries} deliveries failing 5 times, then paused, one activity per round: ${sizes(runs, deliveries)}`);
  assert.equal(runs.length, PLATFORM_RETRY_SCHEDULE.delaysMs.length, 'one run per attempt round');
  // one marker per round, whatever its size: nothing grows with the deliveries
  for (const r of runs) assert.ok(r.events <= 30, `a run has ${r.events} events for ${deliveries} deliveries`);
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ANY($1::text[])`, [ids]);
  assert.equal(rows[0].n, 5 * deliveries, 'every attempt was made and recorded');
  const paused = await db.query(`SELECT count(*)::int AS n FROM webhook_endpoints e WHERE NOT active AND id IN (SELECT endpoint_id FROM webhook_deliveries WHERE id = ANY($1::text[]))`, [ids]);
  assert.equal(paused.rows[0].n, ENDPOINTS_PER_WORKSPACE);
});

test('the largest batch, all answered at once: one run per round of about one event per attempt', async () => {
  const deliveries = EVENTS_PER_CLAIM * ENDPOINTS_PER_WORKSPACE;
  const ids = await seedBatch(ENDPOINTS_PER_WORKSPACE, EVENTS_PER_CLAIM);
  healthy = true;
  const runs = await runBatch(ids, TICKETING_RETRY_SCHEDULE);
  console.log(`${deliveries} deliveries answered 200 at once: ${sizes(runs, deliveries)}`);
  // The receiver answers every POST 200, yet on a loaded machine a few first attempts can
  // still fail on our side of the wire (a reset keep-alive socket, a late answer), and the
  // batch then runs a second round for those. So the shape is asserted for the rounds that
  // actually ran, taken from the attempts recorded: one run per round, each of about one
  // event per attempt it made, and every delivery succeeded in the end.
  const { rows: rounds } = await db.query<{ attempt: number; n: number; failed: number; answered: number }>(
    `SELECT attempt, count(*)::int AS n, count(*) FILTER (WHERE error IS NOT NULL)::int AS failed,
            count(*) FILTER (WHERE error IS NOT NULL AND status_code IS NOT NULL)::int AS answered
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) GROUP BY attempt ORDER BY attempt`,
    [ids],
  );
  assert.equal(rounds[0]?.n, deliveries, 'every delivery was attempted in the first round');
  assert.equal(runs.length, rounds.length, `one run per round with attempts: ${JSON.stringify(rounds)}`);
  if (rounds.length > 1) console.log(`retried rounds (the machine, not the receiver): ${JSON.stringify(rounds)}`);
  for (const [i, round] of rounds.entries()) {
    // an attempt that failed got no answer (the receiver never answers anything but 200)
    assert.equal(round.answered, 0, `round ${round.attempt}: a failed attempt with an HTTP status`);
    // a later round is made of the deliveries the one before failed
    if (i > 0) assert.equal(round.n, rounds[i - 1].failed, `round ${round.attempt} repeats exactly the failures of round ${rounds[i - 1].attempt}`);
    // the first run as before (no timer); a later one adds its timer and its own workflow tasks
    const bound = round.n + (i === 0 ? 30 : 60);
    assert.ok(runs[i].events <= bound, `run ${i + 1}: ${runs[i].events} events for ${round.n} attempts`);
  }
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::text[]) AND status = 'succeeded'`, [ids]);
  assert.equal(rows[0].n, deliveries, 'every delivery succeeded');
});
