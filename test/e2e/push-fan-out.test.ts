// A direct send to 1,000 devices over HTTP, pushed by the suite's `push` worker through
// the real FCM and APNs transports to the local sink: each token receives exactly one
// push, carrying its notificationId; dead tokens are pruned and counted failed.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { startPushApi } from '../support/push';
import { insertDevices, pushTenant, sendOf, sendResult, statusCounts, type PushTenant } from '../support/push-send';
import { byToken, sinkRecords } from '../support/push-sink';

let api: TestApi;
let tenant: PushTenant;

beforeAll(async () => {
  api = await startPushApi();
  tenant = await pushTenant(api);
});
afterAll(async () => {
  await api?.stop();
});

const send = (deviceIds: string[], extra: Record<string, unknown> = {}) =>
  api.request('POST', '/api/v1/notifications/send', {
    headers: { authorization: `ApiKey ${tenant.apiKey}` },
    body: { appId: tenant.appId, deviceIds, title: 'Season 3', body: 'New maps are live', deepLink: 'game://maps', customData: { level: 12 }, ...extra },
  });

describe('push fan-out', () => {
  it('1,000 devices (FCM and APNs): each token receives exactly one push with its notificationId', async () => {
    const devices = await insertDevices(api.deps.db, tenant.appId, 1000, { platform: (n) => (n % 4 === 0 ? 'iOS' : 'Android') });
    const res = await send(devices.map((d) => d.id));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.queued, 1000);
    assert.equal(res.body.rejected, 0);
    assert.equal(res.body.notificationIds.length, 1000);
    const sendId = await sendOf(api.deps.db, res.body.notificationIds[0]);
    const totals = await sendResult(api.deps.temporal, sendId);
    assert.deepEqual(totals, { sent: 1000, failed: 0, pages: 2 });
    assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: 1000 });

    const received = byToken(sinkRecords(undefined), devices.map((d) => d.token));
    devices.forEach((d, i) => {
      const got = received.get(d.token)!;
      assert.equal(got.length, 1, `${d.token} received ${got.length} pushes`);
      assert.equal(got[0].data.notificationId, res.body.notificationIds[i], 'ids in the order of the deviceIds');
      assert.equal(got[0].title, 'Season 3');
      assert.equal(got[0].data.level, '12');
    });
  });

  it('dead tokens: the device becomes inactive, the push counts failed, the device drops out of segment counts and later sends', async () => {
    tenant = await pushTenant(api); // an app of its own: the segment counts only these devices
    const live = await insertDevices(api.deps.db, tenant.appId, 3);
    const dead = await insertDevices(api.deps.db, tenant.appId, 2, { prefix: `unregistered-${Date.now()}` });
    const ids = [...live, ...dead].map((d) => d.id);
    const segment = await api.request('POST', '/api/v1/segments', {
      headers: { authorization: `Bearer ${tenant.token}` },
      body: { appId: tenant.appId, name: 'Android', description: 'all Android', filter: { operator: 'AND', conditions: [{ field: 'platform', operator: 'equals', value: 'Android' }] } },
    });
    assert.equal(segment.status, 201, JSON.stringify(segment.body));
    const count = async () => (await api.request('GET', `/api/v1/segments/${segment.body.id}/device-count`, { headers: { authorization: `Bearer ${tenant.token}` } })).body.count;
    assert.equal(await count(), 5);
    const res = await send(ids);
    assert.equal(res.status, 202);
    const sendId = await sendOf(api.deps.db, res.body.notificationIds[0]);
    assert.deepEqual(await sendResult(api.deps.temporal, sendId), { sent: 3, failed: 2, pages: 1 });
    const { rows } = await api.deps.db.query(
      `SELECT d.id, d.is_active, n.status, n.error FROM push_devices d JOIN push_notifications n ON n.device_id = d.id
        WHERE n.send_id = $1 ORDER BY n.position`,
      [sendId],
    );
    assert.deepEqual(rows.map((r: { is_active: boolean; status: string }) => [r.is_active, r.status]), [
      [true, 'sent'], [true, 'sent'], [true, 'sent'], [false, 'failed'], [false, 'failed'],
    ]);
    assert.ok(rows[3].error, 'the failure names the error');
    assert.equal(await count(), 3);
    // inactive devices are rejected by the next send
    const again = await send(ids);
    assert.equal(again.body.queued, 3);
    assert.equal(again.body.rejected, 2);
  });
});
