// The ticketing webhooks' test mode over HTTP (docs/webhooks.md, "Test mode"): the field
// `testMode` stored, set and shown; the test sender in test mode, one type or one of each
// (`{"all": true}`), with the real `webhooks` worker and a receiver on loopback; and the
// redelivery rule (real events refused with 409 webhook_test_mode, test events allowed).
// That real events are withheld end to end: test/e2e/webhook-test-mode.test.ts.
import assert from 'node:assert/strict';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { createWebhook, fakeResolver, webhookBody } from '../support/webhook-api';
import { insertLoggedDelivery } from '../support/webhook-factories';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

let api: TestApi;
let token: string;
let ws: string;
let secret = '';
let receiver: Receiver;

beforeAll(async () => {
  ({ api, token, ws } = await startTenantApi({ resolveHost: fakeResolver }));
  receiver = await startReceiver({ secret: () => secret, answer: () => 204 });
});
afterAll(async () => {
  await receiver?.stop();
  await api?.stop();
});

const get = (id: string) => api.request('GET', `/v1/webhooks/${id}`, { token });
const patch = (id: string, body: unknown) => api.request('PATCH', `/v1/webhooks/${id}`, { token, body });
const sendTest = (id: string, body?: unknown) => api.request('POST', `/v1/webhooks/${id}/test`, { token, body });
const storedTestMode = async (id: string) => (await api.deps.db.query('SELECT test_mode FROM webhook_endpoints WHERE id = $1', [id])).rows[0].test_mode;

describe('the testMode field', () => {
  it('is false by default, stored as given on create, and shown by every answer that shows an endpoint', async () => {
    const plain = await createWebhook(api, token, webhookBody(ws));
    assert.equal(plain.testMode, false);
    assert.equal(await storedTestMode(plain.id), false);

    const testing = await createWebhook(api, token, webhookBody(ws, { testMode: true }));
    assert.equal(testing.testMode, true);
    assert.equal(await storedTestMode(testing.id), true);
    assert.equal((await get(testing.id)).body.testMode, true);
    const list = await api.request('GET', `/v1/webhooks?workspaceId=${ws}`, { token });
    const listed = new Map(list.body.data.map((e: any) => [e.id, e.testMode]));
    assert.equal(listed.get(testing.id), true);
    assert.equal(listed.get(plain.id), false);
    const rotated = await api.request('POST', `/v1/webhooks/${testing.id}/rotate-secret`, { token });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.testMode, true);
  });

  it('PATCH switches it on and off alone, moving updatedAt and leaving the rest as it was', async () => {
    const e = await createWebhook(api, token, webhookBody(ws, { description: 'staging' }));
    const on = await patch(e.id, { testMode: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.testMode, true);
    assert.equal(await storedTestMode(e.id), true);
    assert.ok(Date.parse(on.body.updatedAt) >= Date.parse(e.updatedAt));
    const { testMode: _on, updatedAt: _u1, ...restOn } = on.body;
    const { testMode: _was, updatedAt: _u0, secret: _s, ...restBefore } = e;
    assert.deepEqual(restOn, restBefore);

    const off = await patch(e.id, { testMode: false, description: 'production' });
    assert.equal(off.status, 200);
    assert.equal(off.body.testMode, false);
    assert.equal(off.body.description, 'production');
    assert.equal((await get(e.id)).body.testMode, false);
  });

  it('400 validation_error for a testMode that is not a boolean, on create and on PATCH; nothing changes', async () => {
    const e = await createWebhook(api, token, webhookBody(ws));
    for (const bad of ['true', 1, null, {}, []]) {
      const created = await api.request('POST', '/v1/webhooks', { token, body: webhookBody(ws, { testMode: bad }) });
      assertError(created, 400, 'validation_error');
      assert.match(created.body.error.message, /testMode/, JSON.stringify(bad));
      const patched = await patch(e.id, { testMode: bad });
      assertError(patched, 400, 'validation_error');
      assert.match(patched.body.error.message, /testMode/);
    }
    assert.equal(await storedTestMode(e.id), false);
  });
});

describe('the test sender in test mode', () => {
  it('sends one signed synthetic event, as out of test mode', async () => {
    const e = await createWebhook(api, token, webhookBody(ws, { url: receiver.url, events: ['ticket.resolved'], testMode: true }));
    secret = e.secret;
    const res = await sendTest(e.id, { event: 'ticket.resolved' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.test, true);
    const [got] = receiver.received(res.body.id);
    assert.equal(got.verified, true, 'both signatures verify with the endpoint secret');
    assert.match(got.envelope.data.id, /^tkt_test_/);
  });

  it('{"all": true} sends one signed synthetic event of each subscribed type, answered as { data } in the order of events', async () => {
    const events = ['player.created', 'ticket.created', 'sla.breached', 'message.created'];
    const e = await createWebhook(api, token, webhookBody(ws, { url: receiver.url, events, testMode: true }));
    secret = e.secret;
    const res = await sendTest(e.id, { all: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(res.body.data.map((d: any) => d.event), events);
    for (const d of res.body.data) {
      assert.deepEqual([d.status, d.test, d.attempts], ['succeeded', true, 1], d.event);
      const got = receiver.received(d.id);
      assert.equal(got.length, 1, d.event);
      assert.equal(got[0].verified, true);
      assert.equal(got[0].envelope.event, d.event);
    }
    assert.equal(new Set(res.body.data.map((d: any) => d.id)).size, events.length, 'a delivery id each');
    const log = await api.request('GET', `/v1/webhooks/${e.id}/deliveries`, { token });
    assert.equal(log.body.data.length, events.length);
    assert.ok(log.body.data.every((d: any) => d.test));
  });

  it('400 for all that is not a boolean or given with event; a paused endpoint is 409 webhook_paused with all too', async () => {
    const e = await createWebhook(api, token, webhookBody(ws, { url: receiver.url, testMode: true }));
    assertError(await sendTest(e.id, { all: 'yes' }), 400, 'validation_error');
    const both = await sendTest(e.id, { all: true, event: 'ticket.created' });
    assertError(both, 400, 'validation_error');
    assert.match(both.body.error.message, /either event or all/);
    await patch(e.id, { active: false });
    assertError(await sendTest(e.id, { all: true }), 409, 'webhook_paused');
  });
});

describe('redelivery in test mode', () => {
  it("409 webhook_test_mode for a real event's delivery, untouched; a test delivery may be redelivered; off again, the real one may", async () => {
    const e = await createWebhook(api, token, webhookBody(ws, { url: receiver.url, events: ['ticket.created'] }));
    secret = e.secret;
    const real = await insertLoggedDelivery(api.deps.db, { endpointId: e.id, workspaceId: ws, status: 'failed', attempts: 1 });
    await patch(e.id, { testMode: true });

    const refused = await api.request('POST', `/v1/webhooks/${e.id}/deliveries/${real}/redeliver`, { token });
    assertError(refused, 409, 'webhook_test_mode');
    assert.match(refused.body.error.message, /test mode/);
    const row = (await api.deps.db.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [real])).rows[0];
    assert.deepEqual(row, { status: 'failed', attempts: 1 }, 'untouched');

    const test = (await sendTest(e.id)).body;
    const again = await api.request('POST', `/v1/webhooks/${e.id}/deliveries/${test.id}/redeliver`, { token });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    await eventually(async () => receiver.received(test.id).length === 2);

    await patch(e.id, { testMode: false });
    assert.equal((await api.request('POST', `/v1/webhooks/${e.id}/deliveries/${real}/redeliver`, { token })).status, 202);
    await eventually(async () => receiver.received(real).length === 1);
  });
});

describe('OpenAPI', () => {
  it('documents testMode on the endpoint, create and PATCH bodies, and all on the test sender', async () => {
    const doc = (await api.request('GET', '/v1/openapi.json')).body;
    const schemas = doc.components.schemas;
    assert.equal(schemas.WebhookEndpoint.properties.testMode.type, 'boolean');
    assert.ok(schemas.WebhookEndpoint.required.includes('testMode'));
    assert.equal(schemas.CreateWebhook.properties.testMode.type, 'boolean');
    assert.equal(schemas.PatchWebhook.properties.testMode.type, 'boolean');
    assert.equal(schemas.TestWebhook.properties.all.type, 'boolean');
    assert.ok(schemas.WebhookTestDeliveries);
  });
});
