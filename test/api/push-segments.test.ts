// Segments over HTTP (/api/v1/segments): create (201, the filter checked and stored in
// normal form), list per app (a plain array), and the live device count (active devices
// of the app that match), with the filter's 400s naming the unknown operator or field.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, startPushApi } from '../support/push';
import { createTwoAppTenant, deactivateDevice, duringAppDeletion, type TwoAppTenant } from '../support/push-device-factories';

const and = (...conditions: unknown[]) => ({ operator: 'AND', conditions });
const or = (...conditions: unknown[]) => ({ operator: 'OR', conditions });
const c = (field: string, operator: string, value: unknown) => ({ field, operator, value });

describe('push segments', () => {
  let api: TestApi;
  let t: TwoAppTenant;
  let other: TwoAppTenant;
  beforeAll(async () => {
    api = await startPushApi();
    t = await createTwoAppTenant(api);
    other = await createTwoAppTenant(api);
  });
  afterAll(async () => api?.stop());

  const create = (body: Record<string, unknown>, headers = bearer(t.userToken)) =>
    api.request('POST', '/api/v1/segments', { headers, body });
  const register = (deviceToken: string, platform: string, deviceMetadata: Record<string, unknown>, key = t.keyA) =>
    api.request('POST', '/api/v1/devices/register', { headers: apiKeyHeader(key), body: { deviceToken, platform, deviceMetadata } });

  it('POST creates a segment (201) with its filter in normal form; an API key of the app may create one too', async () => {
    const filter = and(c('platform', 'equals', 'ios'), or(c('deviceMetadata.country', 'in', ['US', 'CA']), c('deviceMetadata.level', 'greater_than', 10)));
    const res = await create({ appId: t.appA, name: 'US iOS', description: 'north america', filter });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.appId, t.appA);
    assert.equal(res.body.name, 'US iOS');
    assert.equal(res.body.description, 'north america');
    assert.deepEqual(res.body.filter, { ...filter, conditions: [c('platform', 'equals', 'iOS'), filter.conditions[1]] });
    assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
    const byKey = await create({ appId: t.appA, name: 'all', filter: and() }, apiKeyHeader(t.keyA));
    assert.equal(byKey.status, 201, JSON.stringify(byKey.body));
    assert.equal(byKey.body.description, null);
  });

  it('an unknown operator or field is a 400 naming it, under its path', async () => {
    let res = await create({ appId: t.appA, name: 's', filter: and(c('platform', 'equals', 'iOS'), c('userId', 'like', 'a%')) });
    assertPushError(res, 400, 'VALIDATION_FAILED');
    assert.match(res.body.errors['filter.conditions.1.operator'][0], /unknown operator "like"/);
    assert.match(res.body.message, /like/);
    res = await create({ appId: t.appA, name: 's', filter: and(or(c('deviceModel', 'equals', 'x'))) });
    assertPushError(res, 400, 'VALIDATION_FAILED');
    assert.match(res.body.errors['filter.conditions.0.conditions.0.field'][0], /unknown field "deviceModel"/);
    res = await create({ appId: t.appA, name: 's', filter: { operator: 'NAND', conditions: [] } });
    assert.match(res.body.errors['filter.operator'][0], /unknown group operator "NAND"/);
  });

  it('other bad input: wrong value types, too deep, missing filter or name, bad appId: 400s naming the field', async () => {
    let deep: unknown = c('userId', 'exists', true);
    for (let i = 0; i < 6; i++) deep = and(deep);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ appId: t.appA, name: 's', filter: and(c('deviceMetadata.level', 'greater_than', 'ten')) }, 'filter.conditions.0.value'],
      [{ appId: t.appA, name: 's', filter: and(c("deviceMetadata.k'; DROP TABLE push_devices; --", 'in', [])) }, 'filter.conditions.0.value'],
      [{ appId: t.appA, name: 's', filter: deep }, 'filter.conditions.0.conditions.0.conditions.0.conditions.0.conditions.0'],
      [{ appId: t.appA, name: 's' }, 'filter'],
      [{ appId: t.appA, name: 's', filter: 'platform = iOS' }, 'filter'],
      [{ appId: t.appA, filter: and() }, 'name'],
      [{ appId: t.appA, name: '  ', filter: and() }, 'name'],
      [{ appId: 'x', name: 's', filter: and() }, 'appId'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      assertPushError(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.body.errors[field], `${JSON.stringify(body)}: no errors['${field}'] in ${JSON.stringify(res.body.errors)}`);
    }
  });

  it("POST: another company's app 404, another app's key 403, no credential 401", async () => {
    assertPushError(await create({ appId: other.appA, name: 's', filter: and() }), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await create({ appId: t.appB, name: 's', filter: and() }, apiKeyHeader(t.keyA)), 403, 'FORBIDDEN');
    assertPushError(await api.request('POST', '/api/v1/segments', { body: { appId: t.appA, name: 's', filter: and() } }), 401, 'UNAUTHORIZED');
  });

  it('an app deleted while a segment is created for it: 404, not a 500', async () => {
    const doomed = await createTwoAppTenant(api);
    const res = await duringAppDeletion(api, doomed.appA, () => create({ appId: doomed.appA, name: 's', filter: and() }, bearer(doomed.userToken)));
    assertPushError(res, 404, 'RESOURCE_NOT_FOUND');
  });

  it('GET /segments?appId= is a plain array of the app\'s segments, oldest first', async () => {
    const fresh = await createTwoAppTenant(api);
    for (const name of ['one', 'two']) {
      assert.equal((await create({ appId: fresh.appA, name, filter: and() }, bearer(fresh.userToken))).status, 201);
    }
    await create({ appId: fresh.appB, name: 'elsewhere', filter: and() }, bearer(fresh.userToken));
    const res = await api.request('GET', `/api/v1/segments?appId=${fresh.appA}`, { headers: apiKeyHeader(fresh.keyA) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body));
    assert.deepEqual(res.body.map((s: any) => s.name), ['one', 'two']);
    assertPushError(await api.request('GET', '/api/v1/segments', { headers: bearer(fresh.userToken) }), 400, 'VALIDATION_FAILED');
    assertPushError(await api.request('GET', `/api/v1/segments?appId=${fresh.appA}`, { headers: bearer(t.userToken) }), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await api.request('GET', `/api/v1/segments?appId=${fresh.appA}`, { headers: apiKeyHeader(fresh.keyB) }), 403, 'FORBIDDEN');
  });

  it('device-count counts the active devices that match; inactive ones stop counting until they register again', async () => {
    const fresh = await createTwoAppTenant(api);
    const devices: Array<[string, string, Record<string, unknown>]> = [
      ['d1', 'iOS', { country: 'US', level: 12 }],
      ['d2', 'iOS', { country: 'CA', level: 3 }],
      ['d3', 'Android', { country: 'US', level: 50 }],
      ['d4', 'iOS', { country: 'DE', level: '40' }],
      ['d5', 'iOS', { country: 'FR' }],
    ];
    const ids: Record<string, string> = {};
    for (const [tok, platform, meta] of devices) ids[tok] = (await register(tok, platform, meta, fresh.keyA)).body.id;
    // the same tokens in the company's other app never count for this app's segment
    for (const [tok, platform, meta] of devices) await register(tok, platform, meta, fresh.keyB);
    const seg = await create(
      {
        appId: fresh.appA,
        name: 'iOS in North America or high level',
        filter: and(c('platform', 'equals', 'IOS'), or(c('deviceMetadata.country', 'in', ['US', 'CA']), c('deviceMetadata.level', 'greater_than', 10))),
      },
      bearer(fresh.userToken),
    );
    assert.equal(seg.status, 201, JSON.stringify(seg.body));
    const count = async (headers: Record<string, string> = bearer(fresh.userToken)) => api.request('GET', `/api/v1/segments/${seg.body.id}/device-count`, { headers });
    let res = await count();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { count: 3 }); // d1, d2, d4 ("40" reads as a number)

    await deactivateDevice(api.deps.db, ids.d1);
    assert.deepEqual((await count(apiKeyHeader(fresh.keyA))).body, { count: 2 });
    await register('d1', 'iOS', { country: 'US', level: 12 }, fresh.keyA);
    assert.deepEqual((await count()).body, { count: 3 });
    assert.equal((await api.request('DELETE', `/api/v1/devices/${ids.d2}`, { headers: bearer(fresh.userToken) })).status, 204);
    assert.deepEqual((await count()).body, { count: 2 });

    assertPushError(await count(bearer(t.userToken)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await count(apiKeyHeader(t.keyA)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await count(apiKeyHeader(fresh.keyB)), 403, 'FORBIDDEN');
    assertPushError(await count({} as Record<string, string>), 401, 'UNAUTHORIZED');
    for (const id of [randomUUID(), 'nope']) {
      assertPushError(await api.request('GET', `/api/v1/segments/${id}/device-count`, { headers: bearer(fresh.userToken) }), 404, 'RESOURCE_NOT_FOUND');
    }
  });

  it('the /api/v1 document describes the devices and segments operations with every status they answer', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).body;
    const expect: Array<[string, string, string[]]> = [
      ['/api/v1/devices/register', 'post', ['200', '400', '401', '403', '404', '409', '413', '429', '503']],
      ['/api/v1/devices', 'get', ['200', '400', '401', '403', '404', '429', '503']],
      ['/api/v1/devices/{deviceId}', 'get', ['200', '400', '401', '403', '404', '429', '503']],
      ['/api/v1/devices/{deviceId}', 'put', ['200', '400', '401', '403', '404', '413', '429', '503']],
      ['/api/v1/devices/{deviceId}', 'delete', ['204', '400', '401', '403', '404', '429', '503']],
      ['/api/v1/segments', 'post', ['201', '400', '401', '403', '404', '409', '413', '429', '503']],
      ['/api/v1/segments', 'get', ['200', '400', '401', '403', '404', '429', '503']],
      ['/api/v1/segments/{segmentId}/device-count', 'get', ['200', '400', '401', '403', '404', '429', '503']],
    ];
    for (const [path, method, statuses] of expect) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} missing`);
      for (const s of statuses) assert.ok(op.responses[s], `${method} ${path}: no ${s}`);
      assert.ok(op.security?.length, `${method} ${path}: no security`);
    }
    assert.deepEqual(doc.paths['/api/v1/devices/register'].post.security, [{ ApiKey: [] }]);
    assert.deepEqual(doc.paths['/api/v1/devices/{deviceId}'].put.security, [{ ApiKey: [] }]);
  });
});
