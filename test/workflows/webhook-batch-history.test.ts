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
async function runBatch(deliveryIds: string[], schedule: RetrySchedule): Promise<RunSize[]> {
  const batchId = newId('whb');
  const workflowId = webhookBatchWorkflowId(batchId);
  const handle = await env.client.workflow.start(webhookBatchWorkflow, {
    args: [{ batchId, deliveryIds, schedule }],
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

test('the largest batch, all answered at once: one run of about one event per delivery', async () => {
  const deliveries = EVENTS_PER_CLAIM * ENDPOINTS_PER_WORKSPACE;
  const ids = await seedBatch(ENDPOINTS_PER_WORKSPACE, EVENTS_PER_CLAIM);
  healthy = true;
  const runs = await runBatch(ids, TICKETING_RETRY_SCHEDULE);
  console.log(`${deliveries} deliveries succeeding first time: ${sizes(runs, deliveries)}`);
  assert.equal(runs.length, 1);
  assert.ok(runs[0].events <= deliveries + 30, `${runs[0].events} events`);
});
