// Secret rotation at the delivery activity, with its injectable clock standing at the
// exact end of the 24 h: up to the last millisecond an attempt carries both secrets'
// signatures, from it on only the new one's; a second rotation within the 24 h keeps only
// the secret it replaced; a deleted endpoint cannot be rotated. Real PostgreSQL and a
// receiver on loopback.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { connectDb, type Db } from '../../db/db';
import { ROTATION_OVERLAP_MS, rotateSecret } from '../../domain/webhooks/rotate-secret';
import { loadConfig } from '../../lib/config';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { verifyServiceSignature } from '../../lib/webhooks/signing';
import { createTenant } from '../support/factories';
import { createDelivery, removeEndpoint } from '../support/webhook-factories';
import { startReceiver, type Delivered, type Receiver } from '../support/webhook-receiver';

const key = randomBytes(32);
let db: Db;
let receiver: Receiver;
let clock = new Date();

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
  receiver = await startReceiver({ answer: () => 204 });
});
afterAll(async () => {
  await receiver?.stop();
  await db?.close();
});

const activities = () =>
  createWebhookActivities({
    db,
    secretKey: key,
    agents: { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) },
    clock: () => clock,
  });

/** One attempt of the delivery now (on the activity's clock), and what the receiver got. */
async function attempt(deliveryId: string, n: number): Promise<Delivered> {
  const outcome = await activities().attemptDelivery({ deliveryId, attempt: n, scheduledAt: new Date().toISOString(), last: false });
  assert.equal(outcome, 'succeeded');
  return receiver.received(deliveryId)[n - 1];
}

const verifies = (secret: string, d: Delivered) => {
  try {
    new Webhook(secret).verify(d.raw, d.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

test('both signatures until the last millisecond of the 24 h, the new one only from the end on', async () => {
  const { workspace } = await createTenant(db);
  const d = await createDelivery(db, key, workspace.id, receiver.url);
  const rotatedAt = new Date('2026-05-01T10:00:00.000Z');
  const { secret: fresh, previousExpiresAt } = await rotateSecret(db, { secretKey: key }, d.endpointId, rotatedAt);
  assert.equal(previousExpiresAt.getTime() - rotatedAt.getTime(), ROTATION_OVERLAP_MS);

  clock = new Date(previousExpiresAt.getTime() - 1);
  const during = await attempt(d.deliveryId, 1);
  assert.ok(verifyServiceSignature(fresh, during.raw, during.headers['x-service-signature'] as string));
  assert.ok(verifyServiceSignature(d.secret, during.raw, during.headers['x-service-signature-previous'] as string));
  const [first, second] = String(during.headers['webhook-signature']).split(' ');
  assert.ok(verifies(fresh, { ...during, headers: { ...during.headers, 'webhook-signature': first } }), 'the new secret signs first');
  assert.ok(verifies(d.secret, { ...during, headers: { ...during.headers, 'webhook-signature': second } }), 'the old one second');

  clock = previousExpiresAt;
  const after = await attempt(d.deliveryId, 2);
  assert.ok(verifyServiceSignature(fresh, after.raw, after.headers['x-service-signature'] as string));
  assert.equal(after.headers['x-service-signature-previous'], undefined);
  assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
  assert.ok(verifies(fresh, after));
  assert.equal(verifies(d.secret, after), false);
});

test('a second rotation within the 24 h: the previous is the secret it replaced, the first one is gone; its 24 h start again', async () => {
  const { workspace } = await createTenant(db);
  const d = await createDelivery(db, key, workspace.id, receiver.url);
  const first = await rotateSecret(db, { secretKey: key }, d.endpointId, new Date('2026-05-01T10:00:00.000Z'));
  const second = await rotateSecret(db, { secretKey: key }, d.endpointId, new Date('2026-05-01T16:00:00.000Z'));
  assert.equal(second.previousExpiresAt.toISOString(), '2026-05-02T16:00:00.000Z');
  clock = new Date('2026-05-02T12:00:00.000Z'); // past the first rotation's 24 h, within the second's
  const got = await attempt(d.deliveryId, 1);
  assert.ok(verifyServiceSignature(second.secret, got.raw, got.headers['x-service-signature'] as string));
  assert.ok(verifyServiceSignature(first.secret, got.raw, got.headers['x-service-signature-previous'] as string));
  assert.ok(verifies(first.secret, got) && verifies(second.secret, got));
  assert.equal(verifies(d.secret, got), false, 'the original secret no longer signs');
});

test('a deleted endpoint cannot be rotated (the webhook domain\'s 404)', async () => {
  const { workspace } = await createTenant(db);
  const d = await createDelivery(db, key, workspace.id, receiver.url);
  await removeEndpoint(db, d.endpointId);
  await assert.rejects(rotateSecret(db, { secretKey: key }, d.endpointId, new Date()), (err: any) => err.code === 'webhook_not_found');
});
