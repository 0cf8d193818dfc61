// POST /notifications/send, the track endpoints and analytics over HTTP, with the
// suite's `push` worker pushing to the suite's sink.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, startPushApi } from '../support/push';
import { deactivateDevice } from '../support/push-device-factories';
import { insertDevices, pushTenant, sendOf, sendResult, type PushTenant, type TestDevice } from '../support/push-send';

let api: TestApi;
let tenant: PushTenant;
let other: PushTenant;
let devices: TestDevice[];

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  api = await startPushApi();
  [tenant, other] = await Promise.all([pushTenant(api), pushTenant(api)]);
  devices = await insertDevices(api.deps.db, tenant.appId, 4, { platform: (n) => (n === 3 ? 'iOS' : 'Android') });
});
afterAll(async () => {
  await api?.stop();
});

const send = (t: PushTenant, deviceIds: string[], extra: Record<string, unknown> = {}) =>
  api.request('POST', '/api/v1/notifications/send', {
    headers: apiKeyHeader(t.apiKey),
    body: { appId: t.appId, deviceIds, title: 'Hello', body: 'World', ...extra },
  });

describe('POST /notifications/send', () => {
  it('1,000 device ids are accepted; 1,001 is a 400 naming deviceIds', async () => {
    const tooMany = await send(tenant, Array.from({ length: 1001 }, () => randomUUID()));
    assertPushError(tooMany, 400, 'VALIDATION_FAILED');
    assert.ok(tooMany.body.errors.deviceIds, JSON.stringify(tooMany.body));
    const unknown = await send(tenant, Array.from({ length: 1000 }, () => randomUUID()));
    assert.equal(unknown.status, 202);
    assert.deepEqual(unknown.body, { notificationIds: [], queued: 0, rejected: 1000 });
  });

  it('bad input is a 400 in the push envelope', async () => {
    assertPushError(await send(tenant, [devices[0].id], { title: '' }), 400, 'VALIDATION_FAILED');
    assertPushError(await send(tenant, [], {}), 400, 'VALIDATION_FAILED');
    assertPushError(await send(tenant, [devices[0].id], { customData: { from: 'x' } }), 400, 'VALIDATION_FAILED');
    assertPushError(await send(tenant, [devices[0].id], { customData: { big: 'x'.repeat(5000) } }), 400, 'VALIDATION_FAILED');
    assertPushError(await send(tenant, [devices[0].id], { customData: { nested: { a: 1 } } }), 400, 'VALIDATION_FAILED');
  });

  it("another company's app is a 404, an API key of another app a 404 too (not its company)", async () => {
    const res = await api.request('POST', '/api/v1/notifications/send', {
      headers: apiKeyHeader(other.apiKey),
      body: { appId: tenant.appId, deviceIds: [devices[0].id], title: 'x', body: 'y' },
    });
    assertPushError(res, 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await api.request('POST', '/api/v1/notifications/send', { body: { appId: tenant.appId } }), 401, 'UNAUTHORIZED');
  });

  it('unknown, inactive and repeated ids are rejected; ids follow the accepted deviceIds; a user token may send', async () => {
    const [inactive] = await insertDevices(api.deps.db, tenant.appId, 1);
    await deactivateDevice(api.deps.db, inactive.id);
    const [elsewhere] = await insertDevices(api.deps.db, other.appId, 1);
    const res = await api.request('POST', '/api/v1/notifications/send', {
      headers: bearer(tenant.token),
      body: {
        appId: tenant.appId,
        deviceIds: [devices[2].id, 'not-a-uuid', inactive.id, devices[0].id, elsewhere.id, devices[2].id],
        title: 'Order',
        body: 'test',
      },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.queued, 2);
    assert.equal(res.body.rejected, 4);
    const { rows } = await api.deps.db.query(`SELECT id, device_id FROM push_notifications WHERE id = ANY($1::uuid[])`, [res.body.notificationIds]);
    const deviceOf = new Map(rows.map((r: { id: string; device_id: string }) => [r.id, r.device_id]));
    assert.deepEqual(res.body.notificationIds.map((id: string) => deviceOf.get(id)), [devices[2].id, devices[0].id]);
    await sendResult(api.deps.temporal, await sendOf(api.deps.db, res.body.notificationIds[0]));
  });
});

describe('tracking and analytics', () => {
  let ids: string[];

  beforeAll(async () => {
    // a fresh app so the counts are this block's own
    tenant = await pushTenant(api);
    devices = await insertDevices(api.deps.db, tenant.appId, 4, { platform: (n) => (n === 3 ? 'iOS' : 'Android') });
    const res = await send(tenant, devices.map((d) => d.id));
    assert.equal(res.status, 202);
    ids = res.body.notificationIds;
    assert.deepEqual(await sendResult(api.deps.temporal, await sendOf(api.deps.db, ids[0])), { sent: 4, failed: 0, pages: 1 });
  });

  const track = (kind: 'delivery' | 'opened', notificationId: string, t = tenant) =>
    api.request('POST', `/api/v1/notifications/track-${kind}`, { headers: apiKeyHeader(t.apiKey), body: { notificationId } });

  it('track-delivery and track-opened answer 204, count once, and an open is a delivery', async () => {
    assert.equal((await track('delivery', ids[0])).status, 204);
    const first = await api.deps.db.query(`SELECT delivered_at FROM push_notifications WHERE id = $1`, [ids[0]]);
    assert.equal((await track('delivery', ids[0])).status, 204);
    const again = await api.deps.db.query(`SELECT delivered_at FROM push_notifications WHERE id = $1`, [ids[0]]);
    assert.deepEqual(again.rows[0].delivered_at, first.rows[0].delivered_at, 'a repeat changes nothing');
    assert.equal((await track('opened', ids[1])).status, 204);
    assert.equal((await track('opened', ids[1])).status, 204);
    const { rows } = await api.deps.db.query(`SELECT delivered_at, opened_at FROM push_notifications WHERE id = $1`, [ids[1]]);
    assert.ok(rows[0].delivered_at && rows[0].opened_at);
  });

  it("unknown ids and another app's notifications are 404; a user token is 401; a malformed id 400", async () => {
    assertPushError(await track('delivery', randomUUID()), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await track('opened', ids[2], other), 404, 'RESOURCE_NOT_FOUND');
    const userToken = await api.request('POST', '/api/v1/notifications/track-delivery', { headers: bearer(tenant.token), body: { notificationId: ids[2] } });
    assertPushError(userToken, 401, 'UNAUTHORIZED');
    assertPushError(await track('delivery', 'nope'), 400, 'VALIDATION_FAILED');
  });

  it('overview: counts of the recorded facts, rates of what was sent, platforms android and ios', async () => {
    const res = await api.request('GET', `/api/v1/analytics/overview?appId=${tenant.appId}&from=${day(-1)}&to=${day(1)}`, { headers: bearer(tenant.token) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      appId: tenant.appId,
      period: { from: day(-1), to: day(1) },
      totalDevices: 4,
      activeDevices: 4,
      totalNotificationsSent: 4,
      deliveryRate: 0.5,
      openRate: 0.25,
      platformBreakdown: { android: 3, ios: 1 },
    });
    // a period before anything was sent: rates are 0
    const before = await api.request('GET', `/api/v1/analytics/overview?appId=${tenant.appId}&from=2020-01-01&to=2020-01-31`, { headers: apiKeyHeader(tenant.apiKey) });
    assert.equal(before.status, 200);
    assert.equal(before.body.totalNotificationsSent, 0);
    assert.equal(before.body.deliveryRate, 0);
    assert.equal(before.body.openRate, 0);
  });

  it('time-series per hour, day and week; empty buckets included; other granularities are a 400', async () => {
    const q = (g: string) => api.request('GET', `/api/v1/analytics/time-series?appId=${tenant.appId}&from=${day(-1)}&to=${day(1)}&granularity=${g}`, { headers: bearer(tenant.token) });
    const days = await q('day');
    assert.equal(days.status, 200, JSON.stringify(days.body));
    assert.equal(days.body.granularity, 'day');
    assert.deepEqual(days.body.data.map((b: { timestamp: string }) => b.timestamp), [day(-1), day(0), day(1)].map((d) => `${d}T00:00:00.000Z`));
    assert.deepEqual(days.body.data[1], { timestamp: `${day(0)}T00:00:00.000Z`, sent: 4, delivered: 2, opened: 1, failed: 0 });
    const hours = await q('hour');
    assert.equal(hours.body.data.length, 72);
    assert.equal(hours.body.data.reduce((s: number, b: { sent: number }) => s + b.sent, 0), 4);
    const weeks = await q('week');
    assert.equal(weeks.status, 200);
    assert.equal(weeks.body.data.reduce((s: number, b: { sent: number }) => s + b.sent, 0), 4);
    for (const d of weeks.body.data) assert.equal(new Date(d.timestamp).getUTCDay(), 1, 'weeks start on Monday');
    assertPushError(await q('month'), 400, 'VALIDATION_FAILED');
    const backwards = await api.request('GET', `/api/v1/analytics/time-series?appId=${tenant.appId}&from=${day(1)}&to=${day(-1)}`, { headers: bearer(tenant.token) });
    assertPushError(backwards, 400, 'VALIDATION_FAILED');
    assertPushError(await api.request('GET', `/api/v1/analytics/overview?appId=${tenant.appId}&from=yesterday&to=${day(1)}`, { headers: bearer(tenant.token) }), 400, 'VALIDATION_FAILED');
    assertPushError(await api.request('GET', `/api/v1/analytics/overview?appId=${randomUUID()}&from=${day(-1)}&to=${day(1)}`, { headers: bearer(tenant.token) }), 404, 'RESOURCE_NOT_FOUND');
  });
});
