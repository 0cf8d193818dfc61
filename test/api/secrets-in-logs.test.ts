// With NODE_ENV=production, a session that handles every kind of secret (keys, tokens,
// a webhook secret, wrong keys) leaves none of them in the log, and every request line
// shows its Authorization header redacted.
import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { accessToken, createAuthTenant, requestToken } from '../support/auth-factories';
import { capturedLogger } from '../support/captured-log';
import { createWebhook, fakeResolver } from '../support/webhook-api';

describe('secrets in the production log', () => {
  const log = capturedLogger('info');
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ NODE_ENV: 'production' }, { resolveHost: fakeResolver, logger: log.logger });
  });
  afterAll(() => api?.stop());

  it('no key, token or webhook secret reaches the log; Authorization is redacted in every request line', async () => {
    const t = await createAuthTenant(api.deps.db);
    const token = await accessToken(api, t.admin, t.org);
    const created = await api.request('POST', `/v1/organizations/${t.org.id}/api-keys`, {
      token,
      body: { name: 'ci', scopes: ['tickets:read'], workspaceId: t.live.id },
    });
    assert.equal(created.status, 201);
    const hook = await createWebhook(api, token, { workspaceId: t.live.id, url: 'https://hooks.example.com/h', events: ['ticket.created'] });
    const wrongKey = `sk_live_${'W'.repeat(43)}`;
    assert.equal((await requestToken(api, wrongKey, t.org.id)).status, 401);
    assert.equal((await api.request('GET', '/v1/auth/me', { token: wrongKey })).status, 401);
    assert.equal((await api.request('GET', '/v1/auth/me', { token: t.sdk.key })).status, 200);
    assert.equal((await api.request('GET', '/v1/auth/me', { token: `${token.slice(0, -4)}AAAA` })).status, 401);

    const text = log.text();
    const secrets = { adminKey: t.admin.key, sdkKey: t.sdk.key, token, newKey: created.body.key, webhookSecret: hook.secret, wrongKey };
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(value && value.length > 20, name);
      assert.equal(text.includes(value), false, `${name} reached the log`);
      // nor a tell-tale piece of it (a token's signature, a key's random part)
      assert.equal(text.includes(value.slice(-16)), false, `the end of ${name} reached the log`);
    }
    const requests = log.lines().filter((l) => l.msg === 'request');
    const withAuth = requests.filter((l) => l.req.headers.authorization !== undefined);
    assert.ok(requests.length >= 7, `${requests.length} request lines`);
    assert.ok(withAuth.length >= 5);
    for (const l of withAuth) assert.equal(l.req.headers.authorization, '[redacted]');
    assert.ok(requests.every((l) => typeof l.res.status === 'number' && /^req_/.test(l.requestId)));
  });
});
