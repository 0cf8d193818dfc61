import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { createApiKey } from '../support/factories';
import { accessToken, createAuthTenant, errorCode, requestToken } from '../support/auth-factories';

// Two app instances on the same Postgres and Redis stand for two API processes: the
// revocation goes through one, the revoked credentials are tried on the other, whose
// caches were warmed with them first.
describe('revocation', () => {
  let a: TestApi;
  let b: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;
  let adminToken: string;

  beforeAll(async () => {
    a = await startApi();
    b = await startApi();
    t = await createAuthTenant(a.deps.db);
    adminToken = await accessToken(a, t.admin, t.org);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('rejects the key at once and tokens issued before, on every process', async () => {
    const victim = await createApiKey(a.deps.db, t.org, { kind: 'sk_live_', scopes: ['tickets:read'] });
    const token = await accessToken(b, victim, t.org);
    // warm process b's token cache and key caches
    for (let i = 0; i < 3; i++) {
      assert.equal((await b.request('GET', '/v1/auth/me', { token })).status, 200);
      assert.equal((await b.request('GET', '/v1/auth/me', { token: victim.key })).status, 200);
    }

    const del = await a.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/${victim.id}`, { token: adminToken });
    assert.equal(del.status, 204);

    for (const api of [a, b]) {
      const byToken = await api.request('GET', '/v1/auth/me', { token });
      assert.equal(byToken.status, 401);
      assert.equal(errorCode(byToken), 'unauthorized');
      const byKey = await api.request('GET', '/v1/auth/me', { token: victim.key });
      assert.equal(byKey.status, 401);
      assert.equal((await requestToken(api, victim.key, t.org.id)).status, 401);
    }

    // kept for the audit: listed with revokedAt and who revoked it
    const list = await a.request('GET', `/v1/organizations/${t.org.id}/api-keys`, { token: adminToken });
    const row = list.body.data.find((k: any) => k.id === victim.id);
    assert.ok(row.revokedAt);
    const { rows } = await a.deps.db.query('SELECT revoked_by FROM api_keys WHERE id = $1', [victim.id]);
    assert.equal(rows[0].revoked_by, t.admin.id);
  });

  it('stays revoked after the Redis marker is gone (Postgres is the record)', async () => {
    const victim = await createApiKey(a.deps.db, t.org, { kind: 'sk_live_', scopes: ['tickets:read'] });
    const token = await accessToken(a, victim, t.org);
    await a.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/${victim.id}`, { token: adminToken });
    await a.deps.redis.del(`auth:{${victim.id}}:revoked`);
    // b never cached the key, so it reads revoked_at from Postgres
    assert.equal((await b.request('GET', '/v1/auth/me', { token })).status, 401);
    assert.equal((await b.request('GET', '/v1/auth/me', { token: victim.key })).status, 401);
  });

  it('is permanent and idempotent; unknown keys are 404', async () => {
    const victim = await createApiKey(a.deps.db, t.org, { kind: 'sk_live_' });
    const path = `/v1/organizations/${t.org.id}/api-keys/${victim.id}`;
    assert.equal((await a.request('DELETE', path, { token: adminToken })).status, 204);
    const first = (await a.deps.db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [victim.id])).rows[0].revoked_at;
    assert.equal((await a.request('DELETE', path, { token: adminToken })).status, 204);
    const second = (await a.deps.db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [victim.id])).rows[0].revoked_at;
    assert.deepEqual(second, first, 'the first revocation time is kept');

    const missing = await a.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/key_doesnotexist`, { token: adminToken });
    assert.equal(missing.status, 404);
    assert.equal(errorCode(missing), 'api_key_not_found');
  });

  it('a key can revoke itself; its own token dies with it', async () => {
    const self = await createApiKey(a.deps.db, t.org, { kind: 'sk_live_', scopes: ['admin:all'] });
    const token = await accessToken(a, self, t.org);
    const res = await a.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/${self.id}`, { token });
    assert.equal(res.status, 204);
    assert.equal((await a.request('GET', '/v1/auth/me', { token })).status, 401);
  });
});
