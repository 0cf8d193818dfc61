// Devices over HTTP (/api/v1/devices): register is an upsert by app + device token that
// SDKs call on every launch; list / get / change / delete, each reached through the
// device's app: another company's device is a 404, an API key of another app a 403.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, GENEROUS_PUSH_LIMITS, startPushApi } from '../support/push';
import { createTwoAppTenant, deactivateDevice, duringAppDeletion, type TwoAppTenant } from '../support/push-device-factories';

describe('push devices', () => {
  let api: TestApi;
  let t: TwoAppTenant;
  let other: TwoAppTenant;
  beforeAll(async () => {
    api = await startPushApi();
    t = await createTwoAppTenant(api);
    other = await createTwoAppTenant(api);
  });
  afterAll(async () => api?.stop());

  const register = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.request('POST', '/api/v1/devices/register', { headers: { ...apiKeyHeader(key), ...headers }, body });
  const token = () => `tok-${randomUUID()}`;

  describe('POST /devices/register', () => {
    it('creates a device (200) with the spec fields; the platform in any case is answered as Android/iOS', async () => {
      const deviceToken = token();
      const res = await register(t.keyA, {
        appId: t.appA,
        deviceToken,
        platform: 'ANDROID',
        userId: 'player-1',
        deviceMetadata: { country: 'US', level: 3, vip: true, nothing: null },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const d = res.body;
      assert.match(d.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        { appId: d.appId, deviceToken: d.deviceToken, platform: d.platform, userId: d.userId, isActive: d.isActive },
        { appId: t.appA, deviceToken, platform: 'Android', userId: 'player-1', isActive: true },
      );
      assert.deepEqual(d.deviceMetadata, { country: 'US', level: 3, vip: true, nothing: null });
      assert.ok(!Number.isNaN(Date.parse(d.lastSeenAt)) && !Number.isNaN(Date.parse(d.createdAt)));
      assert.ok(res.headers.get('x-ratelimit-limit'));
    });

    it('the second launch returns the same id, refreshes lastSeenAt and metadata, re-activates an inactive device', async () => {
      const deviceToken = token();
      const first = await register(t.keyA, { deviceToken, platform: 'iOS', userId: 'p2', deviceMetadata: { country: 'DE' } });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.appId, t.appA, "appId defaults to the key's app");
      await deactivateDevice(api.deps.db, first.body.id);

      const second = await register(t.keyA, { appId: t.appA, deviceToken, platform: 'ios', deviceMetadata: { country: 'FR', lang: 'fr' } });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.id, first.body.id);
      assert.equal(second.body.isActive, true);
      assert.ok(Date.parse(second.body.lastSeenAt) > Date.parse(first.body.lastSeenAt), 'lastSeenAt refreshed');
      assert.equal(second.body.createdAt, first.body.createdAt);
      assert.deepEqual(second.body.deviceMetadata, { country: 'FR', lang: 'fr' });
      assert.equal(second.body.userId, 'p2', 'an omitted userId keeps the stored one');
      const { rows } = await api.deps.db.query('SELECT count(*)::int AS n FROM push_devices WHERE app_id = $1 AND device_token = $2', [t.appA, deviceToken]);
      assert.equal(rows[0].n, 1);
    });

    it('the same token in another app is another device', async () => {
      const deviceToken = token();
      const a = await register(t.keyA, { deviceToken, platform: 'Android' });
      const b = await register(t.keyB, { deviceToken, platform: 'Android' });
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.notEqual(a.body.id, b.body.id);
    });

    it('takes an API key only: none or a user token is a 401', async () => {
      const body = { appId: t.appA, deviceToken: token(), platform: 'Android' };
      assertPushError(await api.request('POST', '/api/v1/devices/register', { body }), 401, 'UNAUTHORIZED');
      assertPushError(await api.request('POST', '/api/v1/devices/register', { headers: bearer(t.userToken), body }), 401, 'UNAUTHORIZED');
      assertPushError(await register('pk_not-a-key', body), 401, 'UNAUTHORIZED');
    });

    it("another app of the company is a 403; another company's app a 404", async () => {
      assertPushError(await register(t.keyA, { appId: t.appB, deviceToken: token(), platform: 'Android' }), 403, 'FORBIDDEN');
      assertPushError(await register(t.keyA, { appId: other.appA, deviceToken: token(), platform: 'Android' }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('bad input is a 400 naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ platform: 'Android' }, 'deviceToken'],
        [{ deviceToken: '  ', platform: 'Android' }, 'deviceToken'],
        [{ deviceToken: token(), platform: 'windows' }, 'platform'],
        [{ deviceToken: token() }, 'platform'],
        [{ deviceToken: token(), platform: 'iOS', appId: 'nope' }, 'appId'],
        [{ deviceToken: token(), platform: 'iOS', userId: 5 }, 'userId'],
        [{ deviceToken: token(), platform: 'iOS', deviceMetadata: { nested: { a: 1 } } }, 'deviceMetadata.nested'],
        [{ deviceToken: token(), platform: 'iOS', deviceMetadata: [1] }, 'deviceMetadata'],
        [{ deviceToken: token(), platform: 'iOS', deviceMetadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'deviceMetadata'],
        [{ deviceToken: token(), platform: 'iOS', extra: 1 }, '_'],
      ];
      for (const [body, field] of cases) {
        const res = await register(t.keyA, body);
        assertPushError(res, 400, 'VALIDATION_FAILED');
        assert.ok(res.body.errors[field], `${JSON.stringify(body)}: no errors.${field} in ${JSON.stringify(res.body)}`);
      }
    });

    it('an app deleted while its key registers a device: 404, not a 500', async () => {
      const doomed = await createTwoAppTenant(api);
      const res = await duringAppDeletion(api, doomed.appA, () => register(doomed.keyA, { deviceToken: token(), platform: 'Android' }));
      assertPushError(res, 404, 'RESOURCE_NOT_FOUND');
    });

    it('an Idempotency-Key replays the first answer', async () => {
      const key = randomUUID();
      const body = { deviceToken: token(), platform: 'Android' };
      const first = await register(t.keyA, body, { 'idempotency-key': key });
      const again = await register(t.keyA, body, { 'idempotency-key': key });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
    });
  });

  describe('GET /devices', () => {
    let listT: TwoAppTenant;
    let app: string;
    let key: string;
    beforeAll(async () => {
      listT = await createTwoAppTenant(api);
      app = listT.appA;
      key = listT.keyA;
      for (let i = 0; i < 7; i++) {
        const res = await register(key, { deviceToken: `list-${i}`, platform: i % 2 ? 'iOS' : 'Android', userId: i < 3 ? 'u-a' : 'u-b' });
        assert.equal(res.status, 200);
      }
    });

    it('pages oldest first with {items,total,page,pageSize,totalPages}', async () => {
      const p1 = await api.request('GET', `/api/v1/devices?appId=${app}&page=1&pageSize=3`, { headers: bearer(listT.userToken) });
      assert.equal(p1.status, 200, JSON.stringify(p1.body));
      assert.deepEqual({ ...p1.body, items: undefined }, { items: undefined, total: 7, page: 1, pageSize: 3, totalPages: 3 });
      assert.deepEqual(p1.body.items.map((d: any) => d.deviceToken), ['list-0', 'list-1', 'list-2']);
      const p3 = await api.request('GET', `/api/v1/devices?appId=${app}&page=3&pageSize=3`, { headers: apiKeyHeader(key) });
      assert.deepEqual(p3.body.items.map((d: any) => d.deviceToken), ['list-6']);
      const dflt = await api.request('GET', `/api/v1/devices?appId=${app}`, { headers: apiKeyHeader(key) });
      assert.equal(dflt.body.pageSize, 20);
      assert.equal(dflt.body.items.length, 7);
    });

    it('filters by platform (any case) and userId', async () => {
      const ios = await api.request('GET', `/api/v1/devices?appId=${app}&platform=IOS`, { headers: apiKeyHeader(key) });
      assert.deepEqual(ios.body.items.map((d: any) => d.deviceToken), ['list-1', 'list-3', 'list-5']);
      const both = await api.request('GET', `/api/v1/devices?appId=${app}&platform=android&userId=u-a`, { headers: apiKeyHeader(key) });
      assert.deepEqual(both.body.items.map((d: any) => d.deviceToken), ['list-0', 'list-2']);
      assert.equal(both.body.total, 2);
    });

    it('appId is required; pageSize above 100 and bad values are 400s', async () => {
      const h = { headers: apiKeyHeader(key) };
      const cases: Array<[string, string]> = [
        ['', 'appId'],
        [`appId=x`, 'appId'],
        [`appId=${app}&pageSize=101`, 'pageSize'],
        [`appId=${app}&pageSize=0`, 'pageSize'],
        [`appId=${app}&page=0`, 'page'],
        [`appId=${app}&platform=web`, 'platform'],
      ];
      for (const [q, field] of cases) {
        const res = await api.request('GET', `/api/v1/devices?${q}`, h);
        assertPushError(res, 400, 'VALIDATION_FAILED');
        assert.ok(res.body.errors[field], `${q}: ${JSON.stringify(res.body)}`);
      }
      assert.equal((await api.request('GET', `/api/v1/devices?appId=${app}&pageSize=100`, h)).status, 200);
    });

    it("another company's app is a 404, another app's key a 403, no credential a 401", async () => {
      assertPushError(await api.request('GET', `/api/v1/devices?appId=${app}`, { headers: bearer(other.userToken) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('GET', `/api/v1/devices?appId=${app}`, { headers: apiKeyHeader(other.keyA) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('GET', `/api/v1/devices?appId=${listT.appB}`, { headers: apiKeyHeader(key) }), 403, 'FORBIDDEN');
      assertPushError(await api.request('GET', `/api/v1/devices?appId=${app}`), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET, PUT, DELETE /devices/{id}', () => {
    let id: string;
    beforeEach(async () => {
      const res = await register(t.keyA, { deviceToken: token(), platform: 'Android', userId: 'u1', deviceMetadata: { country: 'US' } });
      id = res.body.id;
    });

    it('GET answers the device to its company (user token) and its app key', async () => {
      for (const headers of [bearer(t.userToken), apiKeyHeader(t.keyA)]) {
        const res = await api.request('GET', `/api/v1/devices/${id}`, { headers });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.id, id);
      }
    });

    it('GET: unknown and malformed ids, another company: 404; another app key: 403', async () => {
      for (const path of [randomUUID(), 'not-a-uuid']) {
        assertPushError(await api.request('GET', `/api/v1/devices/${path}`, { headers: bearer(t.userToken) }), 404, 'RESOURCE_NOT_FOUND');
      }
      assertPushError(await api.request('GET', `/api/v1/devices/${id}`, { headers: bearer(other.userToken) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('GET', `/api/v1/devices/${id}`, { headers: apiKeyHeader(other.keyA) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('GET', `/api/v1/devices/${id}`, { headers: apiKeyHeader(t.keyB) }), 403, 'FORBIDDEN');
    });

    it('PUT (API key) changes userId and replaces deviceMetadata; null clears userId; {} changes nothing', async () => {
      const put = (body: unknown, headers = apiKeyHeader(t.keyA)) => api.request('PUT', `/api/v1/devices/${id}`, { headers, body });
      let res = await put({ userId: 'u9', deviceMetadata: { country: 'JP', tier: 'gold' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.userId, 'u9');
      assert.deepEqual(res.body.deviceMetadata, { country: 'JP', tier: 'gold' });
      res = await put({ userId: null });
      assert.equal(res.body.userId, null);
      assert.deepEqual(res.body.deviceMetadata, { country: 'JP', tier: 'gold' });
      res = await put({});
      assert.equal(res.status, 200);
      const got = await api.request('GET', `/api/v1/devices/${id}`, { headers: apiKeyHeader(t.keyA) });
      assert.deepEqual(got.body, res.body);
    });

    it('PUT errors: a user token 401, another app key 403, another company 404, bad body 400', async () => {
      const put = (headers: Record<string, string>, body: unknown = { userId: 'x' }, target = id) =>
        api.request('PUT', `/api/v1/devices/${target}`, { headers, body });
      assertPushError(await put(bearer(t.userToken)), 401, 'UNAUTHORIZED');
      assertPushError(await put(apiKeyHeader(t.keyB)), 403, 'FORBIDDEN');
      assertPushError(await put(apiKeyHeader(other.keyA)), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await put(apiKeyHeader(t.keyA), {}, randomUUID()), 404, 'RESOURCE_NOT_FOUND');
      const bad = await put(apiKeyHeader(t.keyA), { deviceMetadata: 'US' });
      assertPushError(bad, 400, 'VALIDATION_FAILED');
      assert.ok(bad.body.errors.deviceMetadata);
      assertPushError(await put(apiKeyHeader(t.keyA), { deviceToken: 'changed' }), 400, 'VALIDATION_FAILED');
    });

    it('DELETE: 204, then the device is gone (404); another company 404, another app key 403', async () => {
      assertPushError(await api.request('DELETE', `/api/v1/devices/${id}`, { headers: bearer(other.userToken) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('DELETE', `/api/v1/devices/${id}`, { headers: apiKeyHeader(t.keyB) }), 403, 'FORBIDDEN');
      const del = await api.request('DELETE', `/api/v1/devices/${id}`, { headers: apiKeyHeader(t.keyA) });
      assert.equal(del.status, 204);
      assertPushError(await api.request('GET', `/api/v1/devices/${id}`, { headers: bearer(t.userToken) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('DELETE', `/api/v1/devices/${id}`, { headers: bearer(t.userToken) }), 404, 'RESOURCE_NOT_FOUND');
    });
  });

  describe('the register limit (1000 a minute per API key, set small here)', () => {
    let limited: TestApi;
    let lt: TwoAppTenant;
    beforeAll(async () => {
      limited = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-devices-register=2` });
      lt = await createTwoAppTenant(limited);
    });
    afterAll(async () => limited?.stop());

    it('register counts per key in its own group: the third is a 429 with Retry-After; other keys and routes go on', async () => {
      const reg = (key: string) =>
        limited.request('POST', '/api/v1/devices/register', { headers: apiKeyHeader(key), body: { deviceToken: token(), platform: 'iOS' } });
      const first = await reg(lt.keyA);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit'), '2');
      assert.equal((await reg(lt.keyA)).status, 200);
      const third = await reg(lt.keyA);
      assertPushError(third, 429, 'RATE_LIMITED');
      assert.ok(Number(third.headers.get('retry-after')) > 0);
      assert.equal((await reg(lt.keyB)).status, 200, "another key's bucket is its own");
      const list = await limited.request('GET', `/api/v1/devices?appId=${lt.appA}`, { headers: apiKeyHeader(lt.keyA) });
      assert.equal(list.status, 200, 'reads are in the per-token group');
    });
  });
});
