// The platform spec's schedule for a PLATFORM endpoint of a platform workspace, on the
// time-skipping server with the real activities: five attempts at +0, +1 min, +6 min,
// +36 min, +2 h 36 min, then the endpoint paused (active false, paused_reason, paused_at)
// and one email to the workspace's admins through the email chain to the test run's SMTP
// server on loopback; a success on attempt 3 ends the retries; resuming (what
// PATCH {active: true} runs) does not replay what was skipped while paused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createPauseActivities, PAUSED_AFTER_FAILURES } from '../../activities/webhooks/pause';
import { connectDb, type Db } from '../../db/db';
import { insertDeliveries } from '../../db/repositories/webhook-deliveries';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { changeEndpoint } from '../../domain/webhooks/change-endpoint';
import { platformEnvelope } from '../../domain/webhooks/platform-envelope';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { PLATFORM_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { loadConfig } from '../../lib/config';
import { createEmailChain } from '../../lib/email/chain';
import { logger } from '../../lib/logger';
import { newId } from '../../lib/ids';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { webhookBatchWorkflowId, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/webhook-batch.workflow';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery/webhook-delivery.workflow';
import { mailSoFar } from '../support/mail';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { startReceiver } from '../support/webhook-receiver';

const TASK_QUEUE = 'webhook-platform-test';
const MIN = 60_000;
const key = randomBytes(32);
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** delivery id → the attempt (from 1) from which the receiver answers 200; 500 before it, forever when absent */
const healthyFrom = new Map<string, number>();

beforeAll(async () => {
  const config = loadConfig();
  assert.ok(config.smtpUrl, 'npm test runs an SMTP server on loopback and sets SMTP_URL');
  db = await connectDb(config.databaseUrl, 5);
  receiver = await startReceiver({ answer: (id, n) => (n >= (healthyFrom.get(id) ?? Infinity) ? 200 : 500) });
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

let tenants = 0;
/** A platform tenant (as test/support/platform.ts platformTenant makes one, without an API). */
const tenant = () => createPlatformTenant(db, { name: `Schedule ${process.pid}-${++tenants}` });

/** A platform endpoint of the tenant's workspace, registered by the webhook domain as POST /platform/v1/webhooks does. */
async function platformEndpoint(t: PlatformTenant): Promise<string> {
  const { endpoint } = await registerEndpoint(
    db,
    { secretKey: key, urlPolicy: { allowLoopback: true } },
    { api: 'platform', environment: 'test', workspaceId: t.workspaceId, url: receiver.url, events: ['ticket.created'], description: '', active: true, maxPerWorkspace: 20 },
  );
  return endpoint.id;
}

/** A delivery of a ticket.created event to the endpoint, in the platform envelope, as the dispatcher writes it (pending, or skipped while paused). */
async function delivery(endpointId: string, t: PlatformTenant, status: 'pending' | 'skipped' = 'pending'): Promise<string> {
  const id = newId('evt');
  const body = platformEnvelope(id, { type: 'ticket.created', workspaceId: t.workspaceId, occurredAt: new Date(), data: { id: newId('tkt') } });
  await insertDeliveries(db, [{ id, endpointId, eventId: newId('evt'), eventType: 'ticket.created', workspaceId: t.workspaceId, body, status }]);
  return id;
}

const batch = (deliveryIds: string[]) => {
  const batchId = newId('whb');
  return env.client.workflow.execute(webhookBatchWorkflow, {
    args: [{ batchId, deliveryIds, schedule: PLATFORM_RETRY_SCHEDULE }],
    workflowId: webhookBatchWorkflowId(batchId),
    taskQueue: TASK_QUEUE,
  });
};

const endpointRow = async (id: string) =>
  (await db.query('SELECT active, paused_at, paused_reason FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
const attemptsOf = async (id: string) =>
  (await db.query('SELECT attempt, scheduled_at, status_code FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [id])).rows;
const statusOf = async (id: string) => (await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [id])).rows[0].status;
const adminEmail = async (t: PlatformTenant) => (await db.query('SELECT email FROM platform_users WHERE id = $1', [t.adminUserId])).rows[0].email;
const mailsOf = (endpointId: string) => mailSoFar((m) => m.headers['x-webhook-endpoint-id'] === endpointId);

test('platform endpoint: attempts at +0, +1, +6, +36 min and +2 h 36 min, then paused and one email to the workspace admins', async () => {
  const t = await tenant();
  const failing = await platformEndpoint(t);
  const first = await delivery(failing, t);
  const sameEndpoint = await delivery(failing, t);
  const fine = await platformEndpoint(t);
  const ok = await delivery(fine, t);
  healthyFrom.set(ok, 1);
  assert.deepEqual(await batch([first, sameEndpoint, ok]), { succeeded: 1, failed: 2, skipped: 0 });

  for (const id of [first, sameEndpoint]) {
    const rows = await attemptsOf(id);
    const start = rows[0].scheduled_at.getTime();
    assert.deepEqual(rows.map((a) => a.scheduled_at.getTime() - start), [0, 1 * MIN, 6 * MIN, 36 * MIN, 156 * MIN]);
    assert.deepEqual(rows.map((a) => a.status_code), [500, 500, 500, 500, 500]);
    assert.equal(receiver.received(id).length, 5);
    assert.equal(await statusOf(id), 'failed');
    // a platform delivery: the snake_case envelope, both signature schemes
    const sent = receiver.received(id)[0];
    assert.equal(sent.envelope.workspace_id, t.workspaceId);
    assert.ok(sent.headers['x-service-signature'] && sent.headers['webhook-signature']);
  }

  // paused once, with its reason and time; the healthy endpoint untouched
  const paused = await endpointRow(failing);
  assert.equal(paused.active, false);
  assert.equal(paused.paused_reason, PAUSED_AFTER_FAILURES);
  assert.ok(paused.paused_at instanceof Date);
  assert.deepEqual(await endpointRow(fine), { active: true, paused_at: null, paused_reason: null });

  // exactly one email for the endpoint, though two of its deliveries ran out together, to the admins
  const mails = mailsOf(failing);
  assert.equal(mails.length, 1);
  assert.deepEqual(mails[0].to, [await adminEmail(t)]);
  assert.match(mails[0].headers.subject, /Webhook paused: http:\/\/127\.0\.0\.1:\d+\/hooks/);
  assert.match(mails[0].raw, new RegExp(first));
});

test('a success on attempt 3 ends the retries: no 4th attempt, the delivery succeeded, the endpoint active, no email', async () => {
  const t = await tenant();
  const endpointId = await platformEndpoint(t);
  const id = await delivery(endpointId, t);
  healthyFrom.set(id, 3);
  assert.deepEqual(await batch([id]), { succeeded: 1, failed: 0, skipped: 0 });
  const rows = await attemptsOf(id);
  const start = rows[0].scheduled_at.getTime();
  assert.deepEqual(rows.map((a) => [a.attempt, a.scheduled_at.getTime() - start, a.status_code]), [[1, 0, 500], [2, 1 * MIN, 500], [3, 6 * MIN, 200]]);
  assert.equal(receiver.received(id).length, 3);
  assert.equal(await statusOf(id), 'succeeded');
  assert.equal((await endpointRow(endpointId)).active, true);
  assert.equal(mailsOf(endpointId).length, 0);
});

test('resuming a paused endpoint does not replay what was skipped; later deliveries go out', async () => {
  const t = await tenant();
  const endpointId = await platformEndpoint(t);
  assert.deepEqual(await batch([await delivery(endpointId, t)]), { succeeded: 0, failed: 1, skipped: 0 });
  assert.equal((await endpointRow(endpointId)).active, false);
  // while paused: an event's delivery is written skipped by the dispatcher, and a pending one is skipped at its attempt
  const skippedByDispatch = await delivery(endpointId, t, 'skipped');
  const pendingWhilePaused = await delivery(endpointId, t);
  assert.deepEqual(await batch([pendingWhilePaused]), { succeeded: 0, failed: 0, skipped: 1 });

  const resumed = await changeEndpoint(db, { urlPolicy: { allowLoopback: true } }, endpointId, { active: true });
  assert.equal(resumed.active, true);
  assert.deepEqual(await endpointRow(endpointId), { active: true, paused_at: null, paused_reason: null });
  const after = await delivery(endpointId, t);
  healthyFrom.set(after, 1);
  assert.deepEqual(await batch([after]), { succeeded: 1, failed: 0, skipped: 0 });
  await env.sleep(3 * 60 * MIN); // well past the whole schedule: nothing of the paused time comes back
  for (const id of [skippedByDispatch, pendingWhilePaused]) {
    assert.equal(await statusOf(id), 'skipped');
    assert.equal(receiver.received(id).length, 0);
  }
  assert.equal(receiver.received(after).length, 1);
});

test('a redelivery on the platform schedule that runs out pauses too; an endpoint already paused gets no second email', async () => {
  const t = await tenant();
  const endpointId = await platformEndpoint(t);
  const d = await delivery(endpointId, t);
  const redeliver = (deliveryId: string) =>
    env.client.workflow.execute(webhookDeliveryWorkflow, {
      args: [{ deliveryId, mode: 'schedule', schedule: PLATFORM_RETRY_SCHEDULE }],
      workflowId: webhookDeliveryWorkflowId(deliveryId),
      taskQueue: TASK_QUEUE,
    });
  assert.equal(await redeliver(d), 'failed');
  assert.equal((await endpointRow(endpointId)).active, false);
  assert.equal(mailsOf(endpointId).length, 1);
  // the endpoint is paused: a further delivery is skipped at once, and nobody is emailed again
  const later = await delivery(endpointId, t);
  assert.equal(await redeliver(later), 'skipped');
  assert.equal(mailsOf(endpointId).length, 1);
});
