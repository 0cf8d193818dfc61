// The platform spec's schedule on the time-skipping server, with the real activities: five
// attempts at +0, +1 min, +6 min, +36 min, +2 h 36 min, then the endpoint paused and one
// email to its workspace through the email chain to the test run's SMTP server on loopback.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createPauseActivities, PAUSED_AFTER_FAILURES } from '../../activities/webhooks/pause';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { createEmailChain } from '../../lib/email/chain';
import { logger } from '../../lib/logger';
import { newId } from '../../lib/ids';
import { PLATFORM_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { webhookBatchWorkflowId, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/webhook-batch.workflow';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery/webhook-delivery.workflow';
import { createAgent, createTenant } from '../support/factories';
import { mailSoFar } from '../support/mail';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { createDelivery, insertLoggedDelivery } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

const TASK_QUEUE = 'webhook-platform-test';
const MIN = 60_000;
const key = randomBytes(32);
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const healthy = new Set<string>();

beforeAll(async () => {
  const config = loadConfig();
  assert.ok(config.smtpUrl, 'npm test runs an SMTP server on loopback and sets SMTP_URL');
  db = await connectDb(config.databaseUrl, 5);
  receiver = await startReceiver({ answer: (id) => (healthy.has(id) ? 200 : 500) });
  env = await timeSkippingEnv();
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: {
      ...createWebhookActivities({ db, secretKey: key, agents }),
      // SMTP only (no Postmark): the mail lands in the SMTP sink this test reads
      ...createPauseActivities({ db, mailer: createEmailChain({ config: { ...config, postmark: undefined }, logger }) }),
    },
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

/** A second pending delivery to the same endpoint (another event). */
const anotherDelivery = (endpointId: string, workspaceId: string) =>
  insertLoggedDelivery(db, { endpointId, workspaceId, status: 'pending', data: {} });

const endpointRow = async (id: string) =>
  (await db.query('SELECT active, paused_at, paused_reason FROM webhook_endpoints WHERE id = $1', [id])).rows[0];

test('platform schedule: attempts at +0, +1, +6, +36 min and +2 h 36 min, then the endpoint is paused and one email is sent', async () => {
  const { workspace } = await createTenant(db);
  const agent = await createAgent(db, workspace.id);
  const failing = await createDelivery(db, key, workspace.id, receiver.url);
  const sameEndpoint = await anotherDelivery(failing.endpointId, workspace.id);
  const fine = await createDelivery(db, key, workspace.id, receiver.url);
  healthy.add(fine.deliveryId);
  const batchId = newId('whb');
  const tally = await env.client.workflow.execute(webhookBatchWorkflow, {
    args: [{ batchId, deliveryIds: [failing.deliveryId, sameEndpoint, fine.deliveryId], schedule: PLATFORM_RETRY_SCHEDULE }],
    workflowId: webhookBatchWorkflowId(batchId),
    taskQueue: TASK_QUEUE,
  });
  assert.deepEqual(tally, { succeeded: 1, failed: 2, skipped: 0 });

  for (const id of [failing.deliveryId, sameEndpoint]) {
    const { rows } = await db.query('SELECT attempt, scheduled_at, status_code FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [id]);
    const first = rows[0].scheduled_at.getTime();
    assert.deepEqual(rows.map((a) => a.scheduled_at.getTime() - first), [0, 1 * MIN, 6 * MIN, 36 * MIN, 156 * MIN]);
    assert.deepEqual(rows.map((a) => a.status_code), [500, 500, 500, 500, 500]);
    assert.equal(receiver.received(id).length, 5);
    assert.equal((await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [id])).rows[0].status, 'failed');
  }

  // paused once, with its reason and time; the healthy endpoint untouched
  const paused = await endpointRow(failing.endpointId);
  assert.equal(paused.active, false);
  assert.equal(paused.paused_reason, PAUSED_AFTER_FAILURES);
  assert.ok(paused.paused_at instanceof Date);
  assert.deepEqual(await endpointRow(fine.endpointId), { active: true, paused_at: null, paused_reason: null });

  // exactly one email for the endpoint, though two of its deliveries ran out together
  const mails = mailSoFar((m) => m.headers['x-webhook-endpoint-id'] === failing.endpointId);
  assert.equal(mails.length, 1);
  assert.deepEqual(mails[0].to, [`${agent.id}@studio.test`]);
  assert.match(mails[0].headers.subject, /Webhook paused: http:\/\/127\.0\.0\.1:\d+\/hook/);
  assert.match(mails[0].raw, new RegExp(failing.deliveryId));
});

test('a redelivery on the platform schedule that runs out pauses too; an endpoint already paused gets no second email', async () => {
  const { workspace } = await createTenant(db);
  await createAgent(db, workspace.id);
  const d = await createDelivery(db, key, workspace.id, receiver.url);
  const redeliver = (deliveryId: string, suffix = '') =>
    env.client.workflow.execute(webhookDeliveryWorkflow, {
      args: [{ deliveryId, mode: 'schedule', schedule: PLATFORM_RETRY_SCHEDULE }],
      workflowId: webhookDeliveryWorkflowId(deliveryId) + suffix,
      taskQueue: TASK_QUEUE,
    });
  assert.equal(await redeliver(d.deliveryId), 'failed');
  assert.equal((await endpointRow(d.endpointId)).active, false);
  assert.equal(mailSoFar((m) => m.headers['x-webhook-endpoint-id'] === d.endpointId).length, 1);
  // the endpoint is paused: a further delivery is skipped at once, and nobody is emailed again
  const later = await anotherDelivery(d.endpointId, workspace.id);
  assert.equal(await redeliver(later), 'skipped');
  assert.equal(mailSoFar((m) => m.headers['x-webhook-endpoint-id'] === d.endpointId).length, 1);
});
