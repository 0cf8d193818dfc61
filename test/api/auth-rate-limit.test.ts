import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { createApiKey } from '../support/factories';
import { accessToken, createAuthTenant, errorCode } from '../support/auth-factories';

describe('rate limits per API key', () => {
  let api: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;

  beforeAll(async () => {
    api = await startApi();
    t = await createAuthTenant(api.deps.db, 'starter');
  });
  afterAll(async () => api?.stop());

  it('allows 120 requests a rolling minute on starter, the 121st is a 429 with Retry-After', async () => {
    const key = await createApiKey(api.deps.db, t.org, { kind: 'sk_live_', scopes: ['tickets:read'] });
    const remaining: number[] = [];
    // ten at a time: fast, and still well inside one 60 s window
    for (let i = 0; i < 120; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => api.request('GET', '/v1/auth/me', { token: key.key })));
      for (const res of batch) {
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-ratelimit-limit'), '120');
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
        const reset = Number(res.headers.get('x-ratelimit-reset'));
        assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
      }
    }
    assert.deepEqual(
      remaining.sort((x, y) => y - x),
      Array.from({ length: 120 }, (_, i) => 119 - i),
      'every request took exactly one slot',
    );

    const limited = await api.request('GET', '/v1/auth/me', { token: key.key });
    assert.equal(limited.status, 429);
    assert.equal(errorCode(limited), 'rate_limit_exceeded');
    assert.equal(limited.body.error.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(limited.headers.get('x-ratelimit-limit'), '120');
    assert.equal(limited.headers.get('x-ratelimit-reset'), String(retryAfter));

    // refused requests do not extend the lockout, and a token of the same key shares its window
    const again = await api.request('GET', '/v1/auth/me', { token: key.key });
    assert.equal(again.status, 429);
    assert.equal((await api.request('POST', '/v1/auth/token', { body: { apiKey: key.key, organizationId: t.org.id } })).status, 429);
    const log = await api.deps.redis.zcard(`auth:{${key.id}}:rl`);
    assert.equal(log, 120);

    // the limit is per key: another key of the same organization is unaffected
    const otherKey = await api.request('GET', '/v1/auth/me', { token: t.readOnly.key });
    assert.equal(otherKey.status, 200);
    assert.equal(otherKey.headers.get('x-ratelimit-remaining'), '119');
  });

  it('sends the headers on every authenticated response, errors included', async () => {
    const token = await accessToken(api, t.admin, t.org);
    const ok = await api.request('GET', '/v1/auth/me', { token });
    assert.equal(ok.headers.get('x-ratelimit-limit'), '120');
    assert.ok(ok.headers.get('x-ratelimit-remaining'));
    assert.ok(ok.headers.get('x-ratelimit-reset'));
    const forbidden = await api.request('GET', `/v1/organizations/org_other/api-keys`, { token });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.headers.get('x-ratelimit-limit'), '120');
    const invalid = await api.request('POST', `/v1/organizations/${t.org.id}/api-keys`, { token, body: {} });
    assert.equal(invalid.status, 400);
    assert.ok(invalid.headers.get('x-ratelimit-remaining'));
  });

  it('uses the limit of the plan', async () => {
    const scale = await createAuthTenant(api.deps.db, 'scale');
    const growth = await createAuthTenant(api.deps.db, 'growth');
    assert.equal((await api.request('GET', '/v1/auth/me', { token: scale.admin.key })).headers.get('x-ratelimit-limit'), '3000');
    assert.equal((await api.request('GET', '/v1/auth/me', { token: growth.admin.key })).headers.get('x-ratelimit-limit'), '600');
  });
});
