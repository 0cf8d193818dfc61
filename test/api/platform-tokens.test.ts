// Platform tokens over HTTP: the bearer scheme, create (secret once, hashed), list without
// secrets, revoke at once; another organisation's tokens are a 404.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';

describe('platform tokens', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPlatformApi();
  });
  afterAll(() => api?.stop());

  it('refuses a missing, malformed or unknown token with 401 in the platform envelope', async () => {
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens'), 401, 'unauthorized');
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: 'nope' }), 401, 'unauthorized');
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: `service_test_${'a'.repeat(43)}` }), 401, 'unauthorized');
  });

  it('creates a token (201, secret once, stored hashed), lists it without the secret, revokes it at once', async () => {
    const t = await platformTenant(api);
    const res = await api.request('POST', '/platform/v1/auth/tokens', {
      token: t.agentToken,
      body: { name: 'exporter', workspace_id: t.workspaceId, environment: 'live', expires_in_days: 30 },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.body.token, /^service_live_[A-Za-z0-9_-]{43}$/);
    assert.equal(res.body.status, 'active');
    assert.equal(res.body.created_by, t.agentUserId);
    assert.ok(res.body.expires_at);
    assert.ok(res.headers.get('x-ratelimit-limit'));
    const { rows } = await api.deps.db.query(`SELECT row_to_json(t)::text AS r FROM platform_tokens t WHERE id = $1`, [res.body.id]);
    assert.ok(!rows[0].r.includes(res.body.token), 'only the hash is stored');

    const list = await api.request('GET', '/platform/v1/auth/tokens', { token: res.body.token });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(Object.keys(list.body).sort(), ['data', 'next_page', 'page', 'per_page', 'total']);
    assert.ok(list.body.data.some((x: any) => x.id === res.body.id));
    for (const x of list.body.data) assert.equal(x.token, undefined);

    assert.equal((await api.request('DELETE', `/platform/v1/auth/tokens/${res.body.id}`, { token: t.agentToken })).status, 204);
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: res.body.token }), 401, 'unauthorized');
  });

  it("another organisation's token id is a 404; expires_in_days other than 30/60/90 is a 400", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    const made = await api.request('POST', '/platform/v1/auth/tokens', { token: a.adminToken, body: { name: 'x', workspace_id: a.workspaceId, environment: 'test' } });
    assert.equal(made.status, 201);
    assertPlatformError(await api.request('DELETE', `/platform/v1/auth/tokens/${made.body.id}`, { token: b.adminToken }), 404, 'not_found');
    assertPlatformError(
      await api.request('POST', '/platform/v1/auth/tokens', { token: b.adminToken, body: { name: 'x', workspace_id: a.workspaceId, environment: 'test' } }),
      404,
      'not_found',
    );
    assertPlatformError(
      await api.request('POST', '/platform/v1/auth/tokens', { token: a.adminToken, body: { name: 'x', workspace_id: a.workspaceId, environment: 'test', expires_in_days: 45 } }),
      400,
      'validation_failed',
    );
  });
});
