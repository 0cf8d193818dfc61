// App API keys over HTTP: one-time secret, list without secrets, revoke, one app's scope.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, type PushAccount, withOwnerAndStranger } from '../support/push';

describe('push API keys', () => {
  const f = withOwnerAndStranger();
  const as = (a: PushAccount) => ({ headers: bearer(a.accessToken) });

  it('creates (201) with the one-time key and its prefix, lastUsedAt null; stored as a hash only', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const res = await f.api.request('POST', '/api/v1/api-keys', { ...as(f.owner), body: { appId: app.id, name: 'iOS SDK' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(res.body).sort(), ['appId', 'createdAt', 'id', 'key', 'lastUsedAt', 'name', 'prefix']);
    assert.equal(res.body.appId, app.id);
    assert.equal(res.body.lastUsedAt, null);
    assert.match(res.body.key, /^pk_[A-Za-z0-9_-]{43}$/);
    assert.ok(res.body.key.startsWith(res.body.prefix));
    const { rows } = await f.api.deps.db.query(`SELECT row_to_json(k)::text AS r FROM push_api_keys k WHERE id = $1`, [res.body.id]);
    assert.ok(!rows[0].r.includes(res.body.key), 'only the hash is stored');
  });

  it('lists an app\'s keys as a plain array without secrets; lastUsedAt is set once the key is used', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const k1 = await createKey(f.api, f.owner.accessToken, app.id, 'one');
    const k2 = await createKey(f.api, f.owner.accessToken, app.id, 'two');
    assert.equal((await f.api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(k1.key) })).status, 200);
    const list = await f.api.request('GET', `/api/v1/api-keys?appId=${app.id}`, as(f.owner));
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.map((k: any) => k.id), [k1.id, k2.id]);
    for (const k of list.body) assert.equal(k.key, undefined);
    assert.ok(list.body[0].lastUsedAt, 'used');
    assert.equal(list.body[1].lastUsedAt, null);
    assertPushError(await f.api.request('GET', '/api/v1/api-keys', as(f.owner)), 400, 'VALIDATION_FAILED');
    assertPushError(await f.api.request('GET', `/api/v1/api-keys?appId=${app.id}`, as(f.stranger)), 404, 'RESOURCE_NOT_FOUND');
  });

  it('a key works only for its app: 403 on another app of the company', async () => {
    const a = await createApp(f.api, f.owner.accessToken);
    const b = await createApp(f.api, f.owner.accessToken);
    const key = await createKey(f.api, f.owner.accessToken, a.id);
    assertPushError(await f.api.request('GET', `/api/v1/apps/${b.id}`, { headers: apiKeyHeader(key.key) }), 403, 'FORBIDDEN');
    // keys cannot mint or list keys
    assertPushError(await f.api.request('POST', '/api/v1/api-keys', { headers: apiKeyHeader(key.key), body: { appId: a.id, name: 'x' } }), 403, 'FORBIDDEN');
    assertPushError(await f.api.request('GET', `/api/v1/api-keys?appId=${a.id}`, { headers: apiKeyHeader(key.key) }), 403, 'FORBIDDEN');
  });

  it('DELETE revokes (204): refused on the very next request; another company or an unknown id is 404', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const key = await createKey(f.api, f.owner.accessToken, app.id);
    assert.equal((await f.api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) })).status, 200);
    assertPushError(await f.api.request('DELETE', `/api/v1/api-keys/${key.id}`, as(f.stranger)), 404, 'RESOURCE_NOT_FOUND');
    const del = await f.api.request('DELETE', `/api/v1/api-keys/${key.id}`, as(f.owner));
    assert.equal(del.status, 204);
    assertPushError(await f.api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) }), 401, 'UNAUTHORIZED');
    assert.deepEqual((await f.api.request('GET', `/api/v1/api-keys?appId=${app.id}`, as(f.owner))).body, []);
    assertPushError(await f.api.request('DELETE', `/api/v1/api-keys/${key.id}`, as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await f.api.request('DELETE', `/api/v1/api-keys/${randomUUID()}`, as(f.owner)), 404, 'RESOURCE_NOT_FOUND');
  });

  it('bad input is a 400 naming the field; an unknown or foreign app is 404', async () => {
    const res = await f.api.request('POST', '/api/v1/api-keys', { ...as(f.owner), body: { appId: 'nope' } });
    assertPushError(res, 400, 'VALIDATION_FAILED');
    assert.ok(res.body.errors.appId && res.body.errors.name);
    const foreign = await createApp(f.api, f.stranger.accessToken);
    assertPushError(await f.api.request('POST', '/api/v1/api-keys', { ...as(f.owner), body: { appId: foreign.id, name: 'x' } }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('replays a created key for the same Idempotency-Key (sealed at rest), without minting a second', async () => {
    const app = await createApp(f.api, f.owner.accessToken);
    const headers = { ...bearer(f.owner.accessToken), 'Idempotency-Key': `key-${randomUUID()}` };
    const first = await f.api.request('POST', '/api/v1/api-keys', { headers, body: { appId: app.id, name: 'ci' } });
    const again = await f.api.request('POST', '/api/v1/api-keys', { headers, body: { appId: app.id, name: 'ci' } });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await f.api.request('GET', `/api/v1/api-keys?appId=${app.id}`, as(f.owner))).body.length, 1);
    const { rows } = await f.api.deps.db.query(`SELECT response::text AS r FROM idempotency_keys WHERE key = $1`, [headers['Idempotency-Key']]);
    assert.ok(!rows[0].r.includes(first.body.key), 'sealed');
  });
});
