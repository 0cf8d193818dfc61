// The delivery side of /v1/webhooks over HTTP, with the real `webhooks` worker and real
// receivers on loopback: the test-event sender, the 7-day delivery log and redelivery.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { standardWebhooksKey, verifyServiceSignature } from '../../lib/webhooks/signing';
import { createApp } from '../../api/app';
import type { DeliveryStatus } from '../../db/repositories/webhook-deliveries';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { eventually } from '../support/eventually';
import { createWebhook, fakeResolver } from '../support/webhook-api';
import { insertAttempt, insertLoggedDelivery } from '../support/webhook-factories';
import { startReceiver, type Delivered } from '../support/webhook-receiver';

let api: TestApi;
let tenant: Tenant;
let token: string;
let ws: string;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let ok: Receiver; // answers 204
let flaky: Receiver; // 500 to the first request of each delivery, then 204
let slow: Receiver; // 204 after 1.5 s

beforeAll(async () => {
  ({ api, tenant, token, ws } = await startTenantApi({ resolveHost: fakeResolver }));
  ok = await startReceiver({ answer: () => 204 });
  flaky = await startReceiver({ answer: (_id, n) => (n === 1 ? 500 : 204) });
  slow = await startReceiver({ answer: () => new Promise((r) => setTimeout(() => r(204), 1_500)) });
});
afterAll(async () => {
  await Promise.all([ok, flaky, slow].map((r) => r?.stop()));
  await api.stop();
});

const endpoint = (url: string, events = ['ticket.created', 'ticket.resolved', 'player.created']) =>
  createWebhook(api, token, { workspaceId: ws, url, events });
const log = (id: string, query = '') => api.request('GET', `/v1/webhooks/${id}/deliveries${query}`, { token });
const redeliver = (id: string, evt: string) => api.request('POST', `/v1/webhooks/${id}/deliveries/${evt}/redeliver`, { token });

function assertSigned(req: Delivered, secret: string, deliveryId: string) {
  assert.equal(req.headers['webhook-id'], deliveryId);
  assert.ok(verifyServiceSignature(secret, req.raw, String(req.headers['x-service-signature'])), 'x-service-signature verifies');
  const wh = new Webhook(standardWebhooksKey(secret).toString('base64'));
  assert.doesNotThrow(() => wh.verify(req.raw, req.headers as Record<string, string>));
}

/** A delivery row of the log, as the worker would have left it. */
const insertDelivery = (endpointId: string, o: { status?: DeliveryStatus; createdAt?: Date; attempts?: number; completedAt?: Date | null } = {}) =>
  insertLoggedDelivery(api.deps.db, { endpointId, workspaceId: ws, ...o });

describe('POST /v1/webhooks/{id}/test', () => {
  it('sends one signed synthetic event to the receiver and answers with the attempt; the log shows it', async () => {
    const e = await endpoint(ok.url);
    const res = await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: { event: 'ticket.resolved' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const d = res.body;
    assert.match(d.id, /^evt_/);
    assert.equal(d.event, 'ticket.resolved');
    assert.equal(d.status, 'succeeded');
    assert.equal(d.test, true);
    assert.equal(d.attempts, 1);
    assert.ok(d.completedAt);
    assert.equal(d.attemptLog.length, 1);
    const [a] = d.attemptLog;
    assert.equal(a.attempt, 1);
    assert.equal(a.statusCode, 204);
    assert.equal(a.error, null);
    assert.equal(typeof a.latencyMs, 'number');
    assert.deepEqual(Object.keys(d.payload), ['id', 'event', 'workspaceId', 'timestamp', 'data']);
    assert.equal(d.payload.id, d.id);
    assert.equal(d.payload.workspaceId, ws);
    assert.match(d.payload.data.id, /^tkt_test_/, 'sample ids say they are test data');
    assert.equal(d.payload.data.status, 'resolved');

    const got = ok.received(d.id);
    assert.equal(got.length, 1);
    assertSigned(got[0], e.secret, d.id);
    assert.deepEqual(JSON.parse(got[0].raw), d.payload, 'the payload is the body as sent');

    const listed = await log(e.id);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data[0], d);
    const { rows } = await api.deps.db.query('SELECT synthetic, event_id FROM webhook_deliveries WHERE id = $1', [d.id]);
    assert.equal(rows[0].synthetic, true);
    const events = await api.deps.db.query('SELECT 1 FROM events WHERE id = $1', [rows[0].event_id]);
    assert.equal(events.rows.length, 0, 'no outbox event behind a test delivery');
  });

  it("defaults to the endpoint's first event type; 400 for a type it does not receive or does not exist", async () => {
    const e = await endpoint(ok.url, ['player.created', 'sla.breached']);
    const res = await api.request('POST', `/v1/webhooks/${e.id}/test`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.event, 'player.created');
    assert.match(res.body.payload.data.id, /^kpl_test_/);
    const breach = await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: { event: 'sla.breached' } });
    assert.deepEqual(Object.keys(breach.body.payload.data), ['ticketId', 'policy', 'breachedAt']);
    const notSubscribed = await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: { event: 'ticket.created' } });
    assertError(notSubscribed, 400, 'validation_error');
    assert.match(notSubscribed.body.error.message, /not subscribed to 'ticket\.created'/);
    assertError(await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: { event: '*' } }), 400, 'validation_error');
  });

  it('reports a failing receiver: status failed, its status code and the error, no retries', async () => {
    const e = await endpoint(flaky.url);
    const res = await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: {} });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.attempts, 1);
    assert.equal(res.body.attemptLog[0].statusCode, 500);
    assert.match(res.body.attemptLog[0].error, /500/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(flaky.received(res.body.id).length, 1, 'a test send is one attempt');
  });
});

describe('POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('sends a failed delivery again with the same webhook-id, numbering its attempts after the first', async () => {
    const e = await endpoint(flaky.url);
    const first = (await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: {} })).body;
    assert.equal(first.status, 'failed');

    const res = await redeliver(e.id, first.id);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.id, first.id);
    assert.ok(['pending', 'succeeded'].includes(res.body.status), res.body.status);

    const done = await eventually(async () => {
      const d = (await log(e.id)).body.data.find((x: any) => x.id === first.id);
      return d?.status === 'succeeded' ? d : null;
    });
    assert.equal(done.attempts, 2);
    assert.deepEqual(done.attemptLog.map((a: any) => [a.attempt, a.statusCode]), [[1, 500], [2, 204]]);
    assert.deepEqual(done.payload, first.payload, 'the same envelope bytes');
    const got = flaky.received(first.id);
    assert.equal(got.length, 2);
    for (const req of got) assertSigned(req, e.secret, first.id);
    assert.equal(got[1].raw, got[0].raw);
  });

  it('409 delivery_in_progress for a pending delivery, and for the loser of two redeliveries at once', async () => {
    const e = await endpoint(slow.url);
    assertError(await redeliver(e.id, await insertDelivery(e.id, { status: 'pending' })), 409, 'delivery_in_progress');
    const id = await insertDelivery(e.id, { status: 'failed', attempts: 5 });
    const both = await Promise.all([redeliver(e.id, id), redeliver(e.id, id)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [202, 409]);
    assertError(both.find((r) => r.status === 409)!, 409, 'delivery_in_progress');
    const done = await eventually(async () => {
      const d = (await log(e.id)).body.data.find((x: any) => x.id === id);
      return d?.status === 'succeeded' ? d : null;
    });
    assert.deepEqual(done.attemptLog.map((a: any) => a.attempt), [6]);
    assert.equal(slow.received(id).length, 1);
  });

  it('409 webhook_paused for a paused endpoint (test sends too); resuming allows it again', async () => {
    const e = await endpoint(ok.url);
    const id = await insertDelivery(e.id, { status: 'skipped' });
    await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { active: false } });
    assertError(await redeliver(e.id, id), 409, 'webhook_paused');
    assertError(await api.request('POST', `/v1/webhooks/${e.id}/test`, { token, body: {} }), 409, 'webhook_paused');
    const row = (await api.deps.db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [id])).rows[0];
    assert.equal(row.status, 'skipped', 'untouched');
    await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { active: true } });
    assert.equal((await redeliver(e.id, id)).status, 202);
    await eventually(async () => ok.received(id).length === 1);
  });

  it("404 delivery_not_found for unknown ids, another endpoint's deliveries and ones older than 7 days", async () => {
    const e = await endpoint(ok.url);
    const other = await endpoint(ok.url);
    assertError(await redeliver(e.id, 'evt_00000000000000000000000000'), 404, 'delivery_not_found');
    assertError(await redeliver(e.id, 'not-an-id'), 404, 'delivery_not_found');
    assertError(await redeliver(e.id, await insertDelivery(other.id)), 404, 'delivery_not_found');
    const old = await insertDelivery(e.id, { createdAt: new Date(Date.now() - 7 * 86_400_000 - 60_000) });
    assertError(await redeliver(e.id, old), 404, 'delivery_not_found');
  });

  it('503 when Temporal is unreachable, with the delivery put back exactly as it was', async () => {
    const e = await endpoint(ok.url);
    const completedAt = new Date(Date.now() - 3_600_000);
    const id = await insertDelivery(e.id, { status: 'failed', attempts: 5, completedAt });
    const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
    const server = createApp({ ...api.deps, temporal: deadTemporal }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as any).port;
      const res = await fetch(`http://127.0.0.1:${port}/v1/webhooks/${e.id}/deliveries/${id}/redeliver`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      assertError({ status: res.status, body: await res.json() }, 503, 'service_unavailable');
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const row = (await api.deps.db.query('SELECT status, completed_at FROM webhook_deliveries WHERE id = $1', [id])).rows[0];
    assert.equal(row.status, 'failed');
    assert.equal(row.completed_at.toISOString(), completedAt.toISOString());
  });
});

describe('GET /v1/webhooks/{id}/deliveries', () => {
  it('pages the last 7 days newest first with an opaque cursor; status filters; older rows are not listed', async () => {
    const e = await endpoint(ok.url);
    const now = Date.now();
    const same = new Date(now - 30 * 60_000);
    const ids = [
      await insertDelivery(e.id, { createdAt: new Date(now - 60_000), status: 'succeeded' }),
      await insertDelivery(e.id, { createdAt: same, status: 'failed' }),
      await insertDelivery(e.id, { createdAt: same, status: 'failed' }),
      await insertDelivery(e.id, { createdAt: new Date(now - 3 * 86_400_000), status: 'succeeded' }),
      await insertDelivery(e.id, { createdAt: new Date(now - 7 * 86_400_000 + 3_600_000), status: 'failed' }),
    ];
    await insertDelivery(e.id, { createdAt: new Date(now - 8 * 86_400_000) }); // out of the log
    // newest first; equal times by id, descending
    const expected = [ids[0], ...[ids[1], ids[2]].sort().reverse(), ids[3], ids[4]];
    await insertAttempt(api.deps.db, ids[1], { attempt: 2, statusCode: null, latencyMs: 30000, error: 'timed out after 30000 ms' });
    await insertAttempt(api.deps.db, ids[1], { attempt: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503' });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await log(e.id, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.data.length <= 2);
      assert.equal(res.body.pagination.limit, 2);
      seen.push(...res.body.data.map((d: any) => d.id));
      cursor = res.body.pagination.nextCursor;
      assert.equal(res.body.pagination.hasMore, cursor !== null);
      pages++;
    } while (cursor);
    assert.deepEqual(seen, expected);
    assert.equal(pages, 3);

    const failed = await log(e.id, '?status=failed');
    assert.deepEqual(failed.body.data.map((d: any) => d.id), expected.filter((id) => id !== ids[0] && id !== ids[3]));
    const withAttempts = failed.body.data.find((d: any) => d.id === ids[1]);
    assert.deepEqual(withAttempts.attemptLog.map((a: any) => [a.attempt, a.statusCode, a.error]), [
      [1, 503, 'HTTP 503'],
      [2, null, 'timed out after 30000 ms'],
    ]);
    assert.equal(withAttempts.test, false);
    assert.equal((await log(e.id)).body.pagination.limit, 25, 'default limit');
  });

  it('400 for a bad limit, status or cursor, and for a cursor from another filter', async () => {
    const e = await endpoint(ok.url);
    await insertDelivery(e.id, { status: 'failed' });
    await insertDelivery(e.id, { status: 'failed' });
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?status=done', '?cursor=nope', `?cursor=${Buffer.from('{"at":"2024-02-31T00:00:00.000000Z","id":"evt_1","st":null}').toString('base64url')}`]) {
      assertError(await log(e.id, q), 400, 'validation_error');
    }
    const page = await log(e.id, '?limit=1&status=failed');
    assert.ok(page.body.pagination.nextCursor);
    assertError(await log(e.id, `?limit=1&cursor=${page.body.pagination.nextCursor}`), 400, 'validation_error');
    assert.equal((await log(e.id, `?limit=1&status=failed&cursor=${page.body.pagination.nextCursor}`)).status, 200);
  });
});
