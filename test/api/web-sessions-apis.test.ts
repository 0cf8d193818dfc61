// A settings session on each API's own routes (docs/settings.md, "Sessions"): it acts as
// its credential (same routes, scopes, idempotency), every change needs its CSRF token
// (403 in that API's envelope without it or from another origin), a session of one API is
// no credential on another, and revoking the credential ends its sessions.
import assert from 'node:assert/strict';
import { startApi, assertError, type TestApi } from '../support/api';
import { createApiKey } from '../support/factories';
import { createAuthTenant } from '../support/auth-factories';
import { assertPlatformError, GENEROUS_PLATFORM_LIMITS, platformMember, platformTenant } from '../support/platform';
import { assertPushError, bearer, GENEROUS_PUSH_LIMITS, registerAccount } from '../support/push';
import { signIn, withSession, type SignedIn } from '../support/web-session';

const LIMITS = `auth-failures=100000,${GENEROUS_PLATFORM_LIMITS},${GENEROUS_PUSH_LIMITS}`;
const UNKNOWN = 'x'.repeat(43);

describe('settings sessions on the APIs', () => {
  let api: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;
  let p: Awaited<ReturnType<typeof platformTenant>>;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: LIMITS });
    t = await createAuthTenant(api.deps.db);
    p = await platformTenant(api);
  });
  afterAll(() => api?.stop());

  it('ticketing (/v1): reads as the key; changes only with the CSRF token from our origin', async () => {
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    const me = await api.request('GET', '/v1/auth/me', { headers: withSession(s) });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.id, t.admin.id);
    assert.ok(me.headers.get('x-ratelimit-limit'));
    const hook = `/v1/webhooks/wh_${'0'.repeat(26)}`;
    for (const [method, path, body] of [
      ['POST', `/v1/organizations/${t.org.id}/api-keys`, { name: 'by session', type: 'server', scopes: ['tickets:read'] }],
      ['PATCH', hook, { enabled: false }],
      ['DELETE', hook, undefined],
    ] as const) {
      for (const headers of [withSession(s), withSession(s, UNKNOWN), { ...withSession(s, s.csrf), origin: 'https://evil.example' }]) {
        assertError(await api.request(method, path, { body, headers }), 403, 'forbidden');
      }
    }
    // with the token: the API's own answer (the unknown endpoint's 404), and a real change
    assertError(await api.request('DELETE', hook, { headers: withSession(s, s.csrf) }), 404);
    const created = await api.request('POST', `/v1/organizations/${t.org.id}/api-keys`, {
      body: { name: 'by session', type: 'server', scopes: ['tickets:read'] },
      headers: { ...withSession(s, s.csrf), origin: api.baseUrl, 'idempotency-key': 'session-key-1' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // the idempotency scope is the key's: a bearer call with the same key replays it
    const replay = await api.request('POST', `/v1/organizations/${t.org.id}/api-keys`, {
      body: { name: 'by session', type: 'server', scopes: ['tickets:read'] },
      headers: { authorization: `Bearer ${t.admin.key}`, 'idempotency-key': 'session-key-1' },
    });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  });

  it('platform (/platform/v1): reads as the token; changes only with the CSRF token', async () => {
    const s = await signIn(api, { api: 'platform', credential: p.adminToken });
    assert.equal((await api.request('GET', '/platform/v1/auth/tokens', { headers: withSession(s) })).status, 200);
    for (const [method, path, body] of [
      ['POST', '/platform/v1/auth/tokens', { name: 'by session' }],
      ['PATCH', `/platform/v1/workspaces/${p.workspaceId}`, { name: 'Renamed' }],
      ['DELETE', '/platform/v1/auth/tokens/tok_unknown', undefined],
    ] as const) {
      for (const headers of [withSession(s), withSession(s, UNKNOWN)]) assertPlatformError(await api.request(method, path, { body, headers }), 403, 'forbidden');
    }
    const body = { name: 'by session', workspace_id: p.workspaceId, environment: 'test' };
    const created = await api.request('POST', '/platform/v1/auth/tokens', { body, headers: withSession(s, s.csrf) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  it('push (/api/v1): the user scheme; changes only with the CSRF token; API-key-only routes refuse it', async () => {
    const user = await registerAccount(api);
    const s = await signIn(api, { api: 'push', email: user.email, password: user.password });
    const me = await api.request('GET', '/api/v1/auth/me', { headers: withSession(s) });
    assert.equal(me.body.email, user.email);
    for (const [method, path, body] of [
      ['POST', '/api/v1/apps', { name: 'By session' }],
      ['PATCH', '/api/v1/event-triggers/00000000-0000-4000-8000-000000000000', { enabled: false }],
      ['DELETE', '/api/v1/apps/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      for (const headers of [withSession(s), withSession(s, UNKNOWN)]) assertPushError(await api.request(method, path, { body, headers }), 403, 'FORBIDDEN');
    }
    const body = { name: 'By session', bundleId: 'com.studio.session', platform: 'Android' };
    const app = await api.request('POST', '/api/v1/apps', { body, headers: withSession(s, s.csrf) });
    assert.equal(app.status, 201, JSON.stringify(app.body));
    const listed = await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) });
    assert.ok(JSON.stringify(listed.body).includes(app.body.id));
    // a route for API keys only: the session is no credential there
    const track = await api.request('POST', '/api/v1/notifications/track-opened', { body: {}, headers: withSession(s, s.csrf) });
    assertPushError(track, 401, 'UNAUTHORIZED');
  });

  it("a session of one API is no credential on another's routes; a bearer header takes precedence", async () => {
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { headers: withSession(s) }), 401);
    assertPushError(await api.request('GET', '/api/v1/auth/me', { headers: withSession(s) }), 401, 'UNAUTHORIZED');
    const other = await api.request('GET', '/v1/auth/me', { headers: { ...withSession(s), authorization: `Bearer ${t.testAdmin.key}` } });
    assert.equal(other.body.id, t.testAdmin.id, JSON.stringify(other.body));
  });

  it('revoking the credential ends its sessions (ticketing key, platform token)', async () => {
    const key = await createApiKey(api.deps.db, t.org, { kind: 'sk_live_', scopes: ['admin:all'] });
    const ks = await signIn(api, { api: 'ticketing', credential: key.key });
    assert.equal((await api.request('GET', '/v1/auth/me', { headers: withSession(ks) })).status, 200);
    const del = await api.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/${key.id}`, { token: t.admin.key });
    assert.equal(del.status, 204);
    await endedEverywhere(ks, '/v1/auth/me');

    const member = await platformMember(api, p, 'admin');
    const ps = await signIn(api, { api: 'platform', credential: member.token });
    const list = await api.request('GET', '/platform/v1/auth/tokens', { headers: withSession(ps) });
    assert.equal(list.status, 200);
    const own = list.body.data.find((tok: any) => tok.name === 'admin');
    const revoke = await api.request('DELETE', `/platform/v1/auth/tokens/${own.id}`, { token: member.token });
    assert.equal(revoke.status, 204, JSON.stringify(revoke.body));
    await endedEverywhere(ps, '/platform/v1/auth/tokens');
  });

  it("a platform session ends with its creator's deactivation and its token's expiry", async () => {
    const member = await platformMember(api, p, 'admin');
    const s = await signIn(api, { api: 'platform', credential: member.token });
    assert.equal((await api.request('GET', '/platform/v1/auth/tokens', { headers: withSession(s) })).status, 200);
    const off = await api.request('DELETE', `/platform/v1/users/${member.userId}`, { token: p.adminToken });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await endedEverywhere(s, '/platform/v1/auth/tokens');

    const other = await platformMember(api, p, 'admin');
    const e = await signIn(api, { api: 'platform', credential: other.token });
    await api.deps.db.query(`UPDATE platform_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [other.userId]);
    await endedEverywhere(e, '/platform/v1/auth/tokens');
  });

  it('GET /settings/session ends a session whose credential was revoked (before any API call)', async () => {
    const key = await createApiKey(api.deps.db, t.org, { kind: 'sk_live_', scopes: ['admin:all'] });
    const ks = await signIn(api, { api: 'ticketing', credential: key.key });
    await api.request('DELETE', `/v1/organizations/${t.org.id}/api-keys/${key.id}`, { token: t.admin.key });
    assertError(await api.request('GET', '/settings/session', { headers: withSession(ks) }), 401);
  });

  async function endedEverywhere(s: SignedIn, path: string) {
    assert.equal((await api.request('GET', path, { headers: withSession(s) })).status, 401);
    assertError(await api.request('GET', '/settings/session', { headers: withSession(s) }), 401);
  }
});
