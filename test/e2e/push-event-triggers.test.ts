// Event triggers end to end: a trigger created over HTTP, events fired with the app's
// API key, the firing put into a batch by the suite's `push` worker's firing dispatcher,
// its batch workflow started and pushed through the real transports to the suite's sink: the matching fire's rendered
// push arrives once, the non-matching fire sends nothing.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { startPushApi } from '../support/push';
import { insertDevices, pushTenant, type PushTenant } from '../support/push-send';
import { byToken, sinkRecords } from '../support/push-sink';
import { eventually } from '../support/eventually';
import type { FiringStatus } from '../../workflows/trigger-batch/contract';

let api: TestApi;
let tenant: PushTenant;

beforeAll(async () => {
  api = await startPushApi();
  tenant = await pushTenant(api);
});
afterAll(async () => {
  await api?.stop();
});

/** The device's firings' outcomes, oldest first, once none is pending or sending any more. */
async function firingOutcomes(deviceId: string): Promise<FiringStatus[]> {
  const statuses = async () =>
    (await api.deps.db.query(`SELECT status FROM push_trigger_firings WHERE device_id = $1 ORDER BY created_at`, [deviceId])).rows.map(
      (r: { status: FiringStatus }) => r.status,
    );
  await eventually(async () => (await statuses()).every((s) => s !== 'pending' && s !== 'sending'), { timeoutMs: 60_000 });
  return statuses();
}

describe('event triggers through the sink', () => {
  it('a matching fire pushes the rendered text once; a non-matching one sends nothing', async () => {
    const [android, ios] = await insertDevices(api.deps.db, tenant.appId, 2, { platform: (n) => (n ? 'iOS' : 'Android') });
    const created = await api.request('POST', '/api/v1/event-triggers', {
      headers: { authorization: `Bearer ${tenant.token}` },
      body: {
        appId: tenant.appId,
        name: 'Big order thanks',
        eventName: 'purchase_completed',
        delayMinutes: 0,
        conditions: [{ field: 'properties.amount', operator: 'greater_than', value: 50 }],
        title: 'Thanks {{properties.name}}!',
        body: 'Your {{properties.item}} ships soon{{properties.missing}}.',
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const fire = (deviceId: string, properties: Record<string, unknown>) =>
      api.request('POST', '/api/v1/event-triggers/fire', { headers: { authorization: `ApiKey ${tenant.apiKey}` }, body: { deviceId, eventName: 'purchase_completed', properties } });

    const matched = await fire(android.id, { amount: 120, name: 'Ada', item: '${process.exit(1)} {{properties.name}}' });
    assert.equal(matched.status, 202, JSON.stringify(matched.body));
    assert.deepEqual(matched.body, { triggersMatched: 1 });
    const iosMatched = await fire(ios.id, { amount: 51.5, name: 'Bo', item: 'boots' });
    assert.deepEqual(iosMatched.body, { triggersMatched: 1 });
    const small = await fire(android.id, { amount: 10, name: 'Ada', item: 'socks' });
    assert.deepEqual(small.body, { triggersMatched: 0 });

    assert.deepEqual(await firingOutcomes(android.id), ['sent']);
    assert.deepEqual(await firingOutcomes(ios.id), ['sent']);
    const received = byToken(sinkRecords(undefined), [android.token, ios.token]);
    const [a] = received.get(android.token)!;
    assert.equal(received.get(android.token)!.length, 1);
    assert.equal(a.title, 'Thanks Ada!');
    assert.equal(a.body, 'Your ${process.exit(1)} {{properties.name}} ships soon.');
    assert.ok(a.data.notificationId);
    const [b] = received.get(ios.token)!;
    assert.equal(received.get(ios.token)!.length, 1);
    assert.equal(b.title, 'Thanks Bo!');
    assert.equal(b.body, 'Your boots ships soon.');
    // a firing's notification has the firing's id (its batch's send may hold the other device's too)
    const { rows } = await api.deps.db.query(
      `SELECT f.status, n.status AS push, n.id FROM push_trigger_firings f JOIN push_notifications n ON n.id = f.id AND n.send_id = f.send_id WHERE f.device_id = $1`,
      [android.id],
    );
    assert.deepEqual(rows, [{ status: 'sent', push: 'sent', id: a.data.notificationId }]);
  });
});
