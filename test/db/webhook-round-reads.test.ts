// A webhook round's reads (activities/webhooks/deliver.ts attemptDeliveries): the rows of
// its deliveries are read a wave (ROUND_CONCURRENCY) at a time in one statement each, not
// one per delivery, and every delivery still gets the answer its own row gives: sent,
// skipped (paused endpoint, purged row), or answered from an attempt already recorded
// without a second POST. Real PostgreSQL and a receiver on loopback.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { connectDb, type Db } from '../../db/db';
import { poolOf } from '../../db/data-source';
import { recordAttempt } from '../../db/repositories/webhook-deliveries';
import { ROUND_CONCURRENCY } from '../../domain/webhooks/retry.rules';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { createTenant } from '../support/factories';
import { insertEndpoint, insertTicketCreatedDeliveries } from '../support/webhook-factories';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

const key = randomBytes(32);
let db: Db;
let receiver: Receiver;
/** the statements that read deliveries to attempt, counted at the pool */
let reads = 0;

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 5);
  const pool = poolOf(db.dataSource)!;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: typeof query }).query = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('FROM webhook_deliveries d JOIN webhook_endpoints e')) reads++;
    return query(...args);
  };
  receiver = await startReceiver({ answer: () => 204 });
});
afterAll(async () => {
  await receiver?.stop();
  await db?.close();
});

const activities = () =>
  createWebhookActivities({ db, secretKey: key, agents: { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) } });

test('a round of more than one wave: one read per wave, and each delivery answered by its own row', async () => {
  const { workspace } = await createTenant(db);
  const live = await insertEndpoint(db, { workspaceId: workspace.id, url: receiver.url, events: ['ticket.created'], key });
  const paused = await insertEndpoint(db, { workspaceId: workspace.id, url: receiver.url, events: ['ticket.created'], key, active: false });
  const sent = (await insertTicketCreatedDeliveries(db, { workspaceId: workspace.id, endpointIds: [live.id], count: ROUND_CONCURRENCY + 20 })).map((e) => e.deliveries[0].deliveryId);
  const [{ deliveries: [toPaused] }] = await insertTicketCreatedDeliveries(db, { workspaceId: workspace.id, endpointIds: [paused.id], count: 1 });
  // attempt 1 of this one was made and recorded by a worker that died before reporting it
  const [{ deliveries: [recorded] }] = await insertTicketCreatedDeliveries(db, { workspaceId: workspace.id, endpointIds: [live.id], count: 1 });
  await recordAttempt(db, { deliveryId: recorded.deliveryId, attempt: 1, ends: false, outcome: 'succeeded', scheduledAt: new Date(), startedAt: new Date(), statusCode: 204, latencyMs: 3, error: null });
  const purged = newId('evt');

  // the special ones at the start of the first wave and in the second
  const ids = [toPaused.deliveryId, purged, ...sent.slice(0, ROUND_CONCURRENCY - 2), recorded.deliveryId, ...sent.slice(ROUND_CONCURRENCY - 2)];
  reads = 0;
  const results = await activities().attemptDeliveries({ deliveryIds: ids, attempt: 1, scheduledAt: new Date().toISOString(), last: false });

  assert.equal(reads, 2, 'one read per wave of ROUND_CONCURRENCY');
  assert.deepEqual(results.slice(0, 2), ['skipped', 'skipped']);
  assert.equal(results[ROUND_CONCURRENCY], 'succeeded', 'the recorded attempt, answered from its record');
  assert.ok(results.every((r, i) => i < 2 || r === 'succeeded'));
  for (const id of sent) assert.equal(receiver.received(id).length, 1, id);
  assert.equal(receiver.received(recorded.deliveryId).length, 0, 'no second POST of a recorded attempt');
  assert.equal(receiver.received(toPaused.deliveryId).length, 0);
  const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1) GROUP BY status ORDER BY status`, [ids]);
  assert.deepEqual(rows, [{ status: 'skipped', n: 1 }, { status: 'succeeded', n: sent.length + 1 }]);
});
