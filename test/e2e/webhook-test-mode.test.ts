// End to end, test mode (docs/webhooks.md, "Test mode"): API call → outbox → dispatcher →
// delivery workflow (the `webhooks` worker that scripts/test.sh runs) → receivers on
// loopback that verify both signatures. While an endpoint is in test mode a real ticket
// event is not delivered to it and not logged for it (a second endpoint, not in test mode,
// receives that same event: the fan-out wrote that event's rows); the test sender delivers
// correctly signed synthetic events to it; switched off, the next real event arrives and
// the withheld one is not replayed.
import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { createWebhook } from '../support/webhook-api';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

let api: TestApi;
let t: TenantWithPlayer;
let control: Receiver; // an endpoint out of test mode: proof that the real event was dispatched
let testing: Receiver; // the endpoint switched into test mode
let controlSecret = '';
let testingSecret = '';

beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
  control = await startReceiver({ secret: () => controlSecret });
  testing = await startReceiver({ secret: () => testingSecret });
});
afterAll(async () => {
  await Promise.all([control, testing].map((r) => r?.stop()));
  await api?.stop();
});

const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token: t.token, body });
const realArrivals = (r: Receiver) => r.accepted.filter((d) => !String(d.envelope?.data?.id ?? '').includes('_test_'));

/** Every delivery row of the endpoint whose body names the ticket (a real event of it). */
const rowsFor = async (endpointId: string, ticketId: string) =>
  (await api.deps.db.query('SELECT id, status, synthetic FROM webhook_deliveries WHERE endpoint_id = $1 AND body LIKE $2', [endpointId, `%${ticketId}%`])).rows;

test('real events are withheld while test mode is on, test events are sent signed, and switching it off replays nothing', async () => {
  const ctl = await createWebhook(api, t.token, { workspaceId: t.workspace.id, url: control.url, events: ['ticket.created'] });
  controlSecret = ctl.secret;
  const ep = await createWebhook(api, t.token, {
    workspaceId: t.workspace.id,
    url: testing.url,
    events: ['ticket.created', 'ticket.assigned'],
    testMode: true,
  });
  testingSecret = ep.secret;
  assert.equal(ep.testMode, true);

  // 1. a real event while test mode is on: the control endpoint gets it, the test-mode one nothing
  const withheld = await createTicket(api, t);
  const arrived = await eventually(async () => control.of('ticket.created').find((d) => d.envelope.data.id === withheld.id), { timeoutMs: 20_000 });
  assert.equal(arrived.verified, true);
  // the fan-out writes every row of an event in one transaction: the control's row exists, so the test-mode endpoint's would too
  assert.equal((await rowsFor(ctl.id, withheld.id)).length, 1);
  assert.deepEqual(await rowsFor(ep.id, withheld.id), [], 'no delivery row for the endpoint in test mode');
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(testing.accepted.concat(testing.rejected), [], 'the test-mode receiver got nothing');

  // 2. the test sender works in test mode: a synthetic event, signed with the endpoint's secret
  const sent = await call('POST', `/v1/webhooks/${ep.id}/test`, { event: 'ticket.assigned' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.deepEqual([sent.body.status, sent.body.test, sent.body.attempts], ['succeeded', true, 1]);
  const [synthetic] = testing.received(sent.body.id);
  assert.equal(synthetic.verified, true, 'x-service-signature and the Standard Webhooks signature verify');
  assert.equal(synthetic.headers['webhook-id'], sent.body.id);
  assert.equal(synthetic.envelope.event, 'ticket.assigned');
  assert.equal(synthetic.envelope.workspaceId, t.workspace.id);
  assert.match(synthetic.envelope.data.id, /^tkt_test_/);

  // one of each subscribed type in one call
  const all = await call('POST', `/v1/webhooks/${ep.id}/test`, { all: true });
  assert.equal(all.status, 200, JSON.stringify(all.body));
  assert.deepEqual(all.body.data.map((d: any) => [d.event, d.status]), [['ticket.created', 'succeeded'], ['ticket.assigned', 'succeeded']]);
  for (const d of all.body.data) assert.equal(testing.received(d.id)[0]?.verified, true, d.event);

  // 3. off again: the next real event arrives; the withheld one is not replayed
  const off = await call('PATCH', `/v1/webhooks/${ep.id}`, { testMode: false });
  assert.equal(off.status, 200);
  assert.equal(off.body.testMode, false);
  const next = await createTicket(api, t);
  const real = await eventually(async () => testing.of('ticket.created').find((d) => d.envelope.data.id === next.id), { timeoutMs: 20_000 });
  assert.equal(real.verified, true);
  await eventually(async () => control.of('ticket.created').find((d) => d.envelope.data.id === next.id));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(realArrivals(testing).map((d) => d.envelope.data.id), [next.id], 'only the event after test mode');
  assert.deepEqual(testing.rejected, []);
  assert.deepEqual(await rowsFor(ep.id, withheld.id), [], 'nothing logged for the withheld event, so nothing to redeliver');

  // the endpoint's log: the three test deliveries and the one real one
  const log = await call('GET', `/v1/webhooks/${ep.id}/deliveries`);
  assert.deepEqual(
    log.body.data.map((d: any) => d.test).sort(),
    [false, true, true, true],
  );
});
