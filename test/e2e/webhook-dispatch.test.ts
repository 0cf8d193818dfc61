// The outbox dispatcher's recovery paths, through the real `webhooks` worker that
// scripts/test.sh runs: an event claimed by a dispatcher that died before starting its
// workflow, and an event dispatched a second time after it was delivered.
import assert from 'node:assert/strict';
import { envelope } from '../../domain/webhooks/envelope';
import { connectDb, sql, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { createTenant } from '../support/factories';
import { eventually } from '../support/eventually';
import { insertEndpoint } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

let db: Db;
let workspaceId: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let endpointId: string;
let secret = '';

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 4);
  workspaceId = (await createTenant(db)).workspace.id;
  receiver = await startReceiver({ secret: () => secret });
  const ep = await insertEndpoint(db, { workspaceId, url: receiver.url, events: ['ticket.created'] });
  endpointId = ep.id;
  secret = ep.secret;
});
afterAll(async () => {
  await receiver?.stop();
  await db?.close();
});

/** An event as a dispatcher leaves it when it dies between claiming and starting: rows committed, no workflow. */
async function claimedButNotStarted() {
  const eventId = newId('evt');
  const deliveryId = newId('evt');
  const data = { id: newId('tkt'), title: 'claimed, never started' };
  await db.transaction(async (m) => {
    await sql(
      m,
      `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key, claimed_at)
       VALUES ($1, $2, 'ticket.created', $3, $4, now(), $1, now() - interval '1 minute')`,
      [eventId, workspaceId, data.id, JSON.stringify(data)],
    );
    await sql(
      m,
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body)
       VALUES ($1, $2, $3, 'ticket.created', $4, $5)`,
      [deliveryId, endpointId, eventId, workspaceId, envelope(deliveryId, { type: 'ticket.created', workspaceId, occurredAt: new Date(), data })],
    );
  });
  return { eventId, deliveryId };
}

const dispatchedAt = async (eventId: string) =>
  (await db.query('SELECT dispatched_at FROM events WHERE id = $1', [eventId])).rows[0].dispatched_at as Date | null;

test('a claim whose dispatcher died is taken up again with the delivery ids it was claimed with', async () => {
  const { eventId, deliveryId } = await claimedButNotStarted();
  const got = await eventually(async () => receiver.accepted.find((d) => d.id === deliveryId), { timeoutMs: 20_000 });
  assert.equal(got.envelope.id, deliveryId);
  // the worker records the attempt once the receiver has answered: wait for that write
  const rows = await eventually(async () => {
    const r = (await db.query('SELECT id, status FROM webhook_deliveries WHERE event_id = $1', [eventId])).rows;
    return r.every((d) => d.status !== 'pending') && r;
  });
  assert.deepEqual(rows, [{ id: deliveryId, status: 'succeeded' }], 'no second delivery row for the event');
  assert.ok(await eventually(() => dispatchedAt(eventId)));
});

test('dispatching a delivered event again sends nothing: the fan-out workflow id is taken', async () => {
  const { eventId, deliveryId } = await claimedButNotStarted();
  await eventually(async () => (await db.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND status = 'succeeded'`, [deliveryId])).rowCount);
  // as if the dispatcher had crashed after starting the workflow but before marking the event
  await db.query(`UPDATE events SET dispatched_at = NULL, claimed_at = now() - interval '1 minute' WHERE id = $1`, [eventId]);
  await db.query(`NOTIFY events_outbox`);
  assert.ok(await eventually(() => dispatchedAt(eventId)), 'marked dispatched again');
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(receiver.accepted.filter((d) => d.id === deliveryId).length, 1, 'delivered exactly once');
});
