// The whole retry schedule on the time-skipping server, against a real receiver on
// loopback that fails on purpose, with the real delivery activities.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { Webhook } from 'standardwebhooks';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { standardWebhooksKey, verifyServiceSignature } from '../../lib/webhooks/signing';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { webhookDeliveryWorkflowId, webhookBatchWorkflowId } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/webhook-batch.workflow';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery/webhook-delivery.workflow';
import { TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import type { Resolver } from '../../lib/webhooks/url-policy';
import { createTenant } from '../support/factories';
import { workflowBundle, timeSkippingEnv } from '../support/temporal';
import { createDelivery, pauseEndpointOf } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

const TASK_QUEUE = 'webhook-delivery-test';
const key = randomBytes(32);
type Answer = (n: number, deliveryId: string) => number | 'stall' | Promise<number | 'stall'>;
const script = new Map<string, Answer>();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let workspaceId: string;

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 5);
  workspaceId = (await createTenant(db)).workspace.id;
  receiver = await startReceiver({ answer: (id, n) => script.get(id)?.(n, id) ?? 200 });
  env = await timeSkippingEnv();
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: createWebhookActivities({ db, secretKey: key, agents }),
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

async function deliver(answers: Answer) {
  const d = await createDelivery(db, key, workspaceId, receiver.url);
  script.set(d.deliveryId, answers);
  const result = await env.client.workflow.execute(webhookDeliveryWorkflow, {
    args: [{ deliveryId: d.deliveryId, schedule: TICKETING_RETRY_SCHEDULE }],
    workflowId: webhookDeliveryWorkflowId(d.deliveryId),
    taskQueue: TASK_QUEUE,
  });
  const attempts = (
    await db.query('SELECT attempt, scheduled_at, status_code, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [d.deliveryId])
  ).rows;
  const stored = (await db.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [d.deliveryId])).rows[0];
  return { ...d, result, attempts, stored, requests: receiver.received(d.deliveryId) };
}

const MIN = 60_000;

test('five failures: attempts at +0, +5 min, +35 min, +2 h 35 min, +10 h 35 min, then permanently failed', async () => {
  const r = await deliver(() => 500);
  assert.equal(r.result, 'failed');
  assert.deepEqual(r.stored, { status: 'failed', attempts: 5 });
  const first = r.attempts[0].scheduled_at.getTime();
  assert.deepEqual(
    r.attempts.map((a) => a.scheduled_at.getTime() - first),
    [0, 5 * MIN, 35 * MIN, 155 * MIN, 635 * MIN],
  );
  assert.deepEqual(r.attempts.map((a) => a.status_code), [500, 500, 500, 500, 500]);
  assert.equal(r.requests.length, 5);
  // the same evt_ id on every attempt, in the envelope and the headers, each validly signed
  for (const req of r.requests) {
    assert.equal(req.headers['webhook-id'], r.deliveryId);
    assert.equal(JSON.parse(req.raw).id, r.deliveryId);
    assert.ok(verifyServiceSignature(r.secret, req.raw, String(req.headers['x-service-signature'])));
    const wh = new Webhook(standardWebhooksKey(r.secret).toString('base64'));
    assert.doesNotThrow(() => wh.verify(req.raw, req.headers as Record<string, string>));
  }
});

test('success on attempt 3 stops the retries', async () => {
  const r = await deliver((n) => (n < 3 ? 503 : 200));
  assert.equal(r.result, 'succeeded');
  assert.deepEqual(r.stored, { status: 'succeeded', attempts: 3 });
  assert.equal(r.requests.length, 3);
  const first = r.attempts[0].scheduled_at.getTime();
  assert.deepEqual(r.attempts.map((a) => a.scheduled_at.getTime() - first), [0, 5 * MIN, 35 * MIN]);
});

test('an endpoint paused after a failed attempt gets nothing more', async () => {
  const r = await deliver(async (_n, deliveryId) => {
    await pauseEndpointOf(db, deliveryId);
    return 500;
  });
  assert.equal(r.result, 'skipped');
  assert.equal(r.requests.length, 1);
  assert.deepEqual(r.stored, { status: 'skipped', attempts: 1 });
});

test('a receiver that stalls past 30 s counts as a failed attempt', async () => {
  const r = await deliver((n) => (n === 1 ? 'stall' : 200));
  assert.equal(r.result, 'succeeded');
  assert.equal(r.attempts.length, 2);
  assert.equal(r.attempts[0].status_code, null);
  assert.match(r.attempts[0].error, /no answer within 30 s/);
  const first = r.attempts[0].scheduled_at.getTime();
  assert.equal(r.attempts[1].scheduled_at.getTime() - first, 5 * MIN);
});

const attemptRows = async (deliveryId: string) =>
  (await db.query('SELECT attempt, scheduled_at, status_code FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryId])).rows;

test('one batch, two deliveries: each keeps its own schedule, side by side', async () => {
  const fast = await createDelivery(db, key, workspaceId, receiver.url);
  const slow = await createDelivery(db, key, workspaceId, receiver.url);
  script.set(fast.deliveryId, () => 200);
  script.set(slow.deliveryId, (n) => (n < 3 ? 500 : 204));
  const eventId = `evt_test_${Date.now()}`;
  const results = await env.client.workflow.execute(webhookBatchWorkflow, {
    args: [{ batchId: eventId, deliveryIds: [fast.deliveryId, slow.deliveryId], schedule: TICKETING_RETRY_SCHEDULE }],
    workflowId: webhookBatchWorkflowId(eventId),
    taskQueue: TASK_QUEUE,
  });
  assert.deepEqual(results, { succeeded: 2, failed: 0, skipped: 0 });
  assert.equal(receiver.received(fast.deliveryId).length, 1);
  const slowAttempts = await attemptRows(slow.deliveryId);
  const first = slowAttempts[0].scheduled_at.getTime();
  assert.deepEqual(slowAttempts.map((a) => a.scheduled_at.getTime() - first), [0, 5 * MIN, 35 * MIN]);
  assert.deepEqual(slowAttempts.map((a) => a.status_code), [500, 500, 204]);
  assert.equal((await attemptRows(fast.deliveryId))[0].scheduled_at.getTime(), first, 'both first attempts at once');
});

test('a redelivery numbers its attempts after the earlier ones; a test send makes exactly one', async () => {
  const d = await createDelivery(db, key, workspaceId, receiver.url);
  script.set(d.deliveryId, (n) => (n === 1 ? 500 : 200));
  const once = await env.client.workflow.execute(webhookDeliveryWorkflow, {
    args: [{ deliveryId: d.deliveryId, mode: 'once' }],
    workflowId: webhookDeliveryWorkflowId(d.deliveryId),
    taskQueue: TASK_QUEUE,
  });
  assert.equal(once, 'failed', 'one attempt and no retries');
  const again = await env.client.workflow.execute(webhookDeliveryWorkflow, {
    args: [{ deliveryId: d.deliveryId, mode: 'schedule', previousAttempts: 1, schedule: TICKETING_RETRY_SCHEDULE }],
    workflowId: `${webhookDeliveryWorkflowId(d.deliveryId)}/again`,
    taskQueue: TASK_QUEUE,
  });
  assert.equal(again, 'succeeded');
  assert.deepEqual((await attemptRows(d.deliveryId)).map((a) => [a.attempt, a.status_code]), [[1, 500], [2, 200]]);
  assert.equal(receiver.received(d.deliveryId).length, 2);
  const row = (await db.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [d.deliveryId])).rows[0];
  assert.deepEqual(row, { status: 'succeeded', attempts: 2 });
});

test('a secret the configured key cannot open fails the attempt and sends nothing', async () => {
  const d = await createDelivery(db, randomBytes(32), workspaceId, receiver.url); // another key
  const result = await env.client.workflow.execute(webhookDeliveryWorkflow, {
    args: [{ deliveryId: d.deliveryId, mode: 'once' }],
    workflowId: webhookDeliveryWorkflowId(d.deliveryId),
    taskQueue: TASK_QUEUE,
  });
  assert.equal(result, 'failed');
  const [a] = await attemptRows(d.deliveryId);
  assert.equal(a.status_code, null);
  const { rows } = await db.query('SELECT error FROM webhook_attempts WHERE delivery_id = $1', [d.deliveryId]);
  assert.match(rows[0].error, /cannot be decrypted/);
  assert.equal(receiver.received(d.deliveryId).length, 0);
});

test('a name that does not resolve (yet): every attempt fails as unreachable and is logged, nothing is sent', async () => {
  // registration accepts such a name (url-policy.ts); the connect-time lookup is the guard
  const nxdomain: Resolver = async (host) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  const agents = { http: createSafeHttpAgent({ resolve: nxdomain }), https: createSafeHttpsAgent({ resolve: nxdomain }) };
  const d = await createDelivery(db, key, workspaceId, 'https://not-yet.example.com/support');
  const queue = `${TASK_QUEUE}-nxdomain`;
  const nxWorker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: queue,
    workflowBundle: await workflowBundle(),
    activities: createWebhookActivities({ db, secretKey: key, agents }),
  });
  const result = await nxWorker.runUntil(
    env.client.workflow.execute(webhookDeliveryWorkflow, {
      args: [{ deliveryId: d.deliveryId, schedule: TICKETING_RETRY_SCHEDULE }],
      workflowId: webhookDeliveryWorkflowId(d.deliveryId),
      taskQueue: queue,
    }),
  );
  assert.equal(result, 'failed');
  const { rows } = await db.query('SELECT attempt, status_code, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [d.deliveryId]);
  assert.deepEqual(rows.map((r) => r.attempt), [1, 2, 3, 4, 5]);
  for (const r of rows) {
    assert.equal(r.status_code, null);
    assert.match(r.error, /ENOTFOUND not-yet\.example\.com/);
  }
  const stored = (await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [d.deliveryId])).rows[0];
  assert.equal(stored.status, 'failed');
});
