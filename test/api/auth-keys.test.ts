import assert from 'node:assert/strict';
import { hashApiKey } from '../../lib/api-keys';
import { startApi, type TestApi } from '../support/api';
import { accessToken, createAuthTenant, errorCode } from '../support/auth-factories';

describe('API key management, scopes and isolation', () => {
  let api: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;
  let token: string;
  const keysPath = () => `/v1/organizations/${t.org.id}/api-keys`;

  beforeAll(async () => {
    api = await startApi();
    t = await createAuthTenant(api.deps.db);
    token = await accessToken(api, t.admin, t.org);
  });
  afterAll(async () => api?.stop());

  it('creates a server key, shows the secret once, stores only its hash', async () => {
    const res = await api.request('POST', keysPath(), {
      token,
      body: { name: 'CI deploy', type: 'server', scopes: ['tickets:read', 'tickets:write', 'tickets:read'] },
    });
    assert.equal(res.status, 201);
    assert.match(res.body.key, /^sk_live_/);
    assert.match(res.body.id, /^key_/);
    assert.equal(res.body.organizationId, t.org.id);
    assert.equal(res.body.name, 'CI deploy');
    assert.equal(res.body.type, 'server');
    assert.equal(res.body.environment, 'live');
    assert.deepEqual(res.body.scopes, ['tickets:read', 'tickets:write']);
    assert.ok(res.body.key.startsWith(res.body.prefix));
    assert.equal(res.body.revokedAt, null);
    assert.equal(res.body.lastUsedAt, null);

    const { rows } = await api.deps.db.query('SELECT secret_hash, created_by FROM api_keys WHERE id = $1', [res.body.id]);
    assert.equal(rows[0].secret_hash, hashApiKey(res.body.key));
    assert.equal(rows[0].created_by, t.admin.id);

    // the new key works at once, and the list never shows a secret
    assert.equal((await api.request('GET', '/v1/auth/me', { token: res.body.key })).body.name, 'CI deploy');
    const list = await api.request('GET', keysPath(), { token });
    assert.equal(list.status, 200);
    const listed = list.body.data.find((k: any) => k.id === res.body.id);
    assert.equal(listed.key, undefined);
    assert.equal(JSON.stringify(list.body).includes(res.body.key), false);
    assert.ok(list.body.data.some((k: any) => k.id === t.sdk.id));
  });

  it('creates sandbox keys and sdk keys bound to a workspace and a player', async () => {
    const test = await api.request('POST', keysPath(), { token, body: { name: 'sandbox', scopes: ['admin:all'], environment: 'test' } });
    assert.equal(test.status, 201);
    assert.match(test.body.key, /^sk_test_/);

    const sdk = await api.request('POST', keysPath(), {
      token,
      body: { name: 'game client', type: 'sdk', scopes: ['tickets:read'], workspaceId: t.live.id, playerId: 'plr_42' },
    });
    assert.equal(sdk.status, 201, JSON.stringify(sdk.body));
    assert.match(sdk.body.key, /^sdk_/);
    assert.equal(sdk.body.workspaceId, t.live.id);
    assert.equal(sdk.body.playerId, 'plr_42');
    assert.equal(sdk.body.environment, 'live', "defaults to the workspace's environment");
    const me = await api.request('GET', '/v1/auth/me', { token: sdk.body.key });
    assert.equal(me.body.type, 'sdk');
    assert.equal(me.body.playerId, 'plr_42');

    const sandboxSdk = await api.request('POST', keysPath(), {
      token,
      body: { name: 'sandbox client', type: 'sdk', scopes: ['tickets:write'], workspaceId: t.sandbox.id, playerId: 'plr_1' },
    });
    assert.equal(sandboxSdk.body.environment, 'test');
  });

  it('rejects bad key requests with a clear 400', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['no name', { scopes: ['tickets:read'] }, /name/],
      ['no scopes', { name: 'x' }, /scopes/],
      ['empty scopes', { name: 'x', scopes: [] }, /scopes/],
      ['unknown scope', { name: 'x', scopes: ['tickets:delete'] }, /scopes/],
      ['unknown type', { name: 'x', type: 'client', scopes: ['tickets:read'] }, /type/],
      ['bad environment', { name: 'x', scopes: ['tickets:read'], environment: 'prod' }, /environment/],
      ['sdk without workspace/player', { name: 'x', type: 'sdk', scopes: ['tickets:read'] }, /workspaceId.*playerId|playerId/],
      ['sdk with a server scope', { name: 'x', type: 'sdk', scopes: ['players:write'], workspaceId: t.live.id, playerId: 'p' }, /sdk keys may only/],
      ['server key with a player', { name: 'x', scopes: ['tickets:read'], playerId: 'p' }, /playerId/],
      ['live key on a sandbox workspace', { name: 'x', scopes: ['tickets:read'], workspaceId: t.sandbox.id, environment: 'live' }, /environment/],
    ];
    for (const [name, body, message] of cases) {
      const res = await api.request('POST', keysPath(), { token, body });
      assert.equal(res.status, 400, name);
      assert.equal(errorCode(res), 'validation_error', name);
      assert.match(res.body.error.message, message, name);
    }
  });

  it('a read-only key can read what its scope allows and gets 403 elsewhere', async () => {
    const me = await api.request('GET', '/v1/auth/me', { token: t.readOnly.key });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.scopes, ['tickets:read']);
    const tickets = await api.request('GET', `/v1/tickets?workspaceId=${t.live.id}`, { token: t.readOnly.key });
    assert.equal(tickets.status, 200);
    for (const [method, body] of [['GET', undefined], ['POST', { name: 'x', scopes: ['admin:all'] }]] as const) {
      const res = await api.request(method, keysPath(), { token: t.readOnly.key, body });
      assert.equal(res.status, 403, method);
      assert.equal(errorCode(res), 'forbidden');
      assert.match(res.body.error.message, /admin:all/);
    }
    const sdk = await api.request('GET', keysPath(), { token: t.sdk.key });
    assert.equal(sdk.status, 403);
  });

  it('403s on another organization', async () => {
    const other = await createAuthTenant(api.deps.db);
    const path = `/v1/organizations/${other.org.id}/api-keys`;
    assert.equal((await api.request('GET', path, { token })).status, 403);
    assert.equal((await api.request('POST', path, { token, body: { name: 'x', scopes: ['admin:all'] } })).status, 403);
    assert.equal((await api.request('DELETE', `${path}/${other.admin.id}`, { token })).status, 403);
    // a workspace of another organization is refused too
    const res = await api.request('POST', keysPath(), { token, body: { name: 'x', scopes: ['tickets:read'], workspaceId: other.live.id } });
    assert.equal(res.status, 403);
    // and revoking a key id of another organization through our own path finds nothing
    const missing = await api.request('DELETE', `${keysPath()}/${other.admin.id}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(errorCode(missing), 'api_key_not_found');
  });

  it('keeps sandbox keys out of live workspaces and live keys', async () => {
    const testToken = await accessToken(api, t.testAdmin, t.org);
    const onSandbox = await api.request('GET', `/v1/tickets?workspaceId=${t.sandbox.id}`, { token: testToken });
    assert.equal(onSandbox.status, 200);
    const onLive = await api.request('GET', `/v1/tickets?workspaceId=${t.live.id}`, { token: testToken });
    assert.equal(onLive.status, 403);
    const liveOnSandbox = await api.request('GET', `/v1/tickets?workspaceId=${t.sandbox.id}`, { token });
    assert.equal(liveOnSandbox.status, 403);

    const live = await api.request('POST', keysPath(), { token: testToken, body: { name: 'x', scopes: ['admin:all'], environment: 'live' } });
    assert.equal(live.status, 403);
    assert.match(live.body.error.message, /test key/);
    const list = await api.request('GET', keysPath(), { token: testToken });
    assert.ok(list.body.data.length > 0);
    assert.ok(list.body.data.every((k: any) => k.environment === 'test'));
    const revokeLive = await api.request('DELETE', `${keysPath()}/${t.admin.id}`, { token: testToken });
    assert.equal(revokeLive.status, 404);
  });

  it('an sdk key is bound to its workspace', async () => {
    const other = await api.request('GET', `/v1/tickets?workspaceId=${t.sandbox.id}`, { token: t.sdk.key });
    assert.equal(other.status, 403);
    const own = await api.request('GET', `/v1/tickets?workspaceId=${t.live.id}`, { token: t.sdk.key });
    assert.equal(own.status, 200);
  });

  it('validates path parameters', async () => {
    const long = 'x'.repeat(200);
    const res = await api.request('DELETE', `${keysPath()}/${long}`, { token });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'validation_error');
  });
});
