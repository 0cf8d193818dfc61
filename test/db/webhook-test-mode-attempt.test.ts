// Test mode at the delivery activity (docs/webhooks.md, "Test mode"): a real event's
// delivery still pending (a retry) when its endpoint is switched into test mode is not
// sent at its next attempt, it ends `skipped`; a synthetic one (the test sender's) to the
// same endpoint is sent. Real PostgreSQL and a receiver on loopback.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { connectDb, type Db } from '../../db/db';
import { insertSyntheticDelivery } from '../../db/repositories/webhook-deliveries';
import { updateEndpoint } from '../../db/repositories/webhook-endpoints';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { createTenant } from '../support/factories';
import { createDelivery, insertTicketCreatedDeliveries } from '../support/webhook-factories';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

const key = randomBytes(32);
let db: Db;
let receiver: Receiver;

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
  receiver = await startReceiver({ answer: () => 204 });
});
afterAll(async () => {
  await receiver?.stop();
  await db?.close();
});

const attempt = (deliveryId: string) =>
  createWebhookActivities({
    db,
    secretKey: key,
    agents: { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) },
  }).attemptDelivery({ deliveryId, attempt: 1, scheduledAt: new Date().toISOString(), last: false });

const statusOf = async (id: string) => (await db.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [id])).rows[0];

test("a pending real delivery is skipped once its endpoint is in test mode; a test delivery to it is sent", async () => {
  const { workspace } = await createTenant(db);
  const real = await createDelivery(db, key, workspace.id, receiver.url);
  assert.ok(await updateEndpoint(db, real.endpointId, { testMode: true }));

  assert.equal(await attempt(real.deliveryId), 'skipped');
  assert.deepEqual(await statusOf(real.deliveryId), { status: 'skipped', attempts: 0 });
  assert.equal(receiver.received(real.deliveryId).length, 0);

  const synthetic = newId('evt');
  await insertSyntheticDelivery(db, { id: synthetic, eventId: newId('evt'), endpointId: real.endpointId, workspaceId: workspace.id, type: 'ticket.created', body: real.body });
  assert.equal(await attempt(synthetic), 'succeeded');
  assert.equal(receiver.received(synthetic).length, 1);

  // out of test mode, a real delivery is attempted again as before
  assert.ok(await updateEndpoint(db, real.endpointId, { testMode: false }));
  const [{ deliveries: [again] }] = await insertTicketCreatedDeliveries(db, { workspaceId: workspace.id, endpointIds: [real.endpointId], count: 1 });
  assert.equal(await attempt(again.deliveryId), 'succeeded');
  assert.equal(receiver.received(again.deliveryId).length, 1);
});
