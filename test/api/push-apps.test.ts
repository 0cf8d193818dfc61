// Apps over HTTP: CRUD, ownership (another company's app is 404), credentials checked
// and sealed, never returned; deleting an app takes its devices, keys and segments.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, type PushAccount, withOwnerAndStranger } from '../support/push';
import { apnsConfig, p384Pem, rsaPem, serviceAccount } from '../support/push-credentials';
import { createMatchAllSegment, insertManyDevices } from '../support/push-device-factories';

describe('push apps', () => {
  const f = withOwnerAndStranger();

  const as = (a: PushAccount) => ({ headers: bearer(a.accessToken) });

  it('creates (201, platform in any case → canonical), lists as a plain array, gets, renames', async () => {
    const created = await createApp(f.api, f.owner.accessToken, { name: 'Miners', bundleId: 'com.studio.miners', platform: 'ios' });
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.platform, 'iOS');
    assert.equal(created.hasFcmConfig, false);
    assert.equal(created.hasApnsConfig, false);
    assert.deepEqual(Object.keys(created).sort(), ['bundleId', 'createdAt', 'hasApnsConfig', 'hasFcmConfig', 'id', 'name', 'platform', 'updatedAt']);
    const android = await createApp(f.api, f.owner.accessToken, { platform: 'ANDROID' });
    assert.equal(android.platform, 'Android');

    const list = await f.api.request('GET', '/api/v1/apps', as(f.owner));
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body));
    assert.deepEqual(list.body.map((a: any) => a.id).filter((id: string) => [created.id, android.id].includes(id)), [created.id, android.id]);
    assert.deepEqual((await f.api.request('GET', '/api/v1/apps', as(f.stranger))).body, []);

    const got = await f.api.request('GET', `/api/v1/apps/${created.id}`, as(f.owner));
    assert.deepEqual(got.body, created);
    const renamed = await f.api.request('PUT', `/api/v1/apps/${created.id}`, { ...as(f.owner), body: { name: 'Miners 2' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Miners 2');
    assert.equal(renamed.body.bundleId, 'com.studio.miners');
  });

  it('refuses bad input with 400 naming the field', async () => {
    const res = await f.api.request('POST', '/api/v1/apps', { ...as(f.owner), body: { name: '', platform: 'windows' } });
    assertPushError(res, 400, 'VALIDATION_FAILED');
    assert.ok(res.body.errors.name && res.body.errors.bundleId && res.body.errors.platform, JSON.stringify(res.body));
    const app = await createApp(f.api, f.owner.accessToken);
    assertPushError(await f.api.request('PUT', `/api/v1/apps/${app.id}`, { ...as(f.owner), body: {} }), 400, 'VALIDATION_FAILED');
  });

  it("another company's app and an unknown id are 404 on every app route; no token is 401", async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    for (const [method, path, body] of [
      ['GET', `/api/v1/apps/${app.id}`, undefined],
      ['PUT', `/api/v1/apps/${app.id}`, { name: 'mine now' }],
      ['DELETE', `/api/v1/apps/${app.id}`, undefined],
      ['PUT', `/api/v1/apps/${app.id}/fcm-config`, { serviceAccountJson: JSON.stringify(serviceAccount()) }],
      ['PUT', `/api/v1/apps/${app.id}/apns-config`, apnsConfig()],
    ] as const) {
      assertPushError(await f.api.request(method, path, { ...as(f.stranger), body }), 404, 'RESOURCE_NOT_FOUND');
    }
    assertPushError(await f.api.request('GET', `/api/v1/apps/${randomUUID()}`, as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await f.api.request('GET', '/api/v1/apps/not-a-uuid', as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await f.api.request('GET', '/api/v1/apps'), 401, 'UNAUTHORIZED');
    assert.equal((await f.api.request('GET', `/api/v1/apps/${app.id}`, as(f.owner))).body.name, 'Space Miners', 'unchanged');
  });

  it('an API key reads its own app; another app of the company is 403; managing apps needs a user (403)', async () => {
    const a = await createApp(f.api, f.owner.accessToken);
    const b = await createApp(f.api, f.owner.accessToken);
    const key = await createKey(f.api, f.owner.accessToken, a.id);
    const h = { headers: apiKeyHeader(key.key) };
    assert.deepEqual((await f.api.request('GET', '/api/v1/apps', h)).body.map((x: any) => x.id), [a.id]);
    assert.equal((await f.api.request('GET', `/api/v1/apps/${a.id}`, h)).status, 200);
    assertPushError(await f.api.request('GET', `/api/v1/apps/${b.id}`, h), 403, 'FORBIDDEN');
    assertPushError(await f.api.request('POST', '/api/v1/apps', { ...h, body: { name: 'x', bundleId: 'y', platform: 'iOS' } }), 403, 'FORBIDDEN');
    assertPushError(await f.api.request('PUT', `/api/v1/apps/${a.id}`, { ...h, body: { name: 'x' } }), 403, 'FORBIDDEN');
    assertPushError(await f.api.request('DELETE', `/api/v1/apps/${a.id}`, h), 403, 'FORBIDDEN');
    // a key of another company's app: 404, as for a user
    const strangerApp = await createApp(f.api, f.stranger.accessToken);
    const strangerKey = await createKey(f.api, f.stranger.accessToken, strangerApp.id);
    assertPushError(await f.api.request('GET', `/api/v1/apps/${a.id}`, { headers: apiKeyHeader(strangerKey.key) }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('FCM config: checked (project_id, client_email, private_key), sealed, shown only as hasFcmConfig', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const put = (serviceAccountJson: unknown) => f.api.request('PUT', `/api/v1/apps/${app.id}/fcm-config`, { ...as(f.owner), body: { serviceAccountJson } });
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /JSON/],
      ['[1,2]', /object/],
      [JSON.stringify(serviceAccount({ project_id: undefined })), /project_id/],
      [JSON.stringify(serviceAccount({ client_email: 'nobody' })), /client_email/],
      [JSON.stringify(serviceAccount({ private_key: 'not a key' })), /private_key/],
      [JSON.stringify(serviceAccount({ private_key: p384Pem() })), /private_key/],
      [{ an: 'object' }, /string/i],
    ];
    for (const [value, says] of cases) {
      const res = await put(value);
      assertPushError(res, 400, 'VALIDATION_FAILED');
      assert.match(String(res.body.errors.serviceAccountJson), says, JSON.stringify(res.body));
    }
    assert.equal((await f.api.request('GET', `/api/v1/apps/${app.id}`, as(f.owner))).body.hasFcmConfig, false);

    const doc = JSON.stringify(serviceAccount());
    const ok = await put(doc);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.hasFcmConfig, true);
    assert.ok(!JSON.stringify(ok.body).includes('PRIVATE KEY'));
    const { rows } = await f.api.deps.db.query(`SELECT fcm_credentials FROM push_apps WHERE id = $1`, [app.id]);
    assert.ok(rows[0].fcm_credentials);
    assert.ok(!rows[0].fcm_credentials.includes('space-miners') && !rows[0].fcm_credentials.includes('PRIVATE'), 'sealed at rest');
    const { openFcmCredentials } = await import('../../lib/push/credential-box');
    assert.equal(openFcmCredentials(f.api.deps.config, app.id, rows[0].fcm_credentials).serviceAccountJson, doc);
    assert.throws(() => openFcmCredentials(f.api.deps.config, randomUUID(), rows[0].fcm_credentials), 'bound to its app');
  });

  it('APNs config: the key must be EC P-256, ids checked, sealed, shown only as hasApnsConfig', async () => {
    const app = await createApp(f.api, f.owner.accessToken, { platform: 'iOS' });
    const put = (body: unknown) => f.api.request('PUT', `/api/v1/apps/${app.id}/apns-config`, { ...as(f.owner), body });
    for (const [body, field] of [
      [apnsConfig({ p8KeyContent: p384Pem() }), 'p8KeyContent'],
      [apnsConfig({ p8KeyContent: rsaPem() }), 'p8KeyContent'],
      [apnsConfig({ p8KeyContent: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }), 'p8KeyContent'],
      [apnsConfig({ keyId: 'short' }), 'keyId'],
      [apnsConfig({ teamId: undefined }), 'teamId'],
      [apnsConfig({ useSandbox: 'yes' }), 'useSandbox'],
      [apnsConfig({ bundleId: '' }), 'bundleId'],
    ] as Array<[unknown, string]>) {
      const res = await put(body);
      assertPushError(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.body.errors[field], `${field} in ${JSON.stringify(res.body)}`);
    }
    const cfg = apnsConfig();
    const ok = await put(cfg);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.hasApnsConfig, true);
    assert.equal(ok.body.hasFcmConfig, false);
    const { rows } = await f.api.deps.db.query(`SELECT apns_credentials FROM push_apps WHERE id = $1`, [app.id]);
    assert.ok(!rows[0].apns_credentials.includes('PRIVATE') && !rows[0].apns_credentials.includes('ABC123DEFG'));
    const { openApnsCredentials } = await import('../../lib/push/credential-box');
    assert.deepEqual(openApnsCredentials(f.api.deps.config, app.id, rows[0].apns_credentials), cfg);
  });

  it('DELETE (204) takes the devices, keys and segments with it; the key stops working at once', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const key = await createKey(f.api, f.owner.accessToken, app.id);
    await insertManyDevices(f.api.deps.db, app.id, 1, () => ({ platform: 'Android', deviceMetadata: {} }));
    await createMatchAllSegment(f.api.deps.db, app.id);
    const del = await f.api.request('DELETE', `/api/v1/apps/${app.id}`, as(f.owner));
    assert.equal(del.status, 204);
    assertPushError(await f.api.request('GET', `/api/v1/apps/${app.id}`, as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
    for (const table of ['push_devices', 'push_segments', 'push_api_keys']) {
      const { rows } = await f.api.deps.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE app_id = $1`, [app.id]);
      assert.equal(rows[0].n, 0, table);
    }
    assertPushError(await f.api.request('GET', '/api/v1/apps', { headers: apiKeyHeader(key.key) }), 401, 'UNAUTHORIZED');
    assertPushError(await f.api.request('DELETE', `/api/v1/apps/${app.id}`, as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
  });
});
