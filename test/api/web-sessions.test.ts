// /settings/session (docs/settings.md, "Sessions"): signing in with each API's credential,
// the refusals, GET and DELETE, the cookie's attributes, idle and absolute expiry on the
// app's injectable clock, the sign-in throttle and Redis away.
import assert from 'node:assert/strict';
import { startApi, assertError, type TestApi } from '../support/api';
import { accessToken, createAuthTenant } from '../support/auth-factories';
import { GENEROUS_PLATFORM_LIMITS, platformTenant } from '../support/platform';
import { GENEROUS_PUSH_LIMITS, registerAccount } from '../support/push';
import { startTcpProxy, viaProxy } from '../support/tcp-proxy';
import { signIn, steppingClock, withSession } from '../support/web-session';

const LIMITS = `auth-failures=100000,${GENEROUS_PLATFORM_LIMITS},${GENEROUS_PUSH_LIMITS}`;
const SESSION_KEYS = ['api', 'csrfToken', 'environment', 'expiresAt', 'idleExpiresAt', 'label', 'organizationId', 'workspaceId'];

describe('settings sessions', () => {
  const clock = steppingClock();
  let api: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: LIMITS }, { clock: clock.read });
    t = await createAuthTenant(api.deps.db);
  });
  afterAll(() => api?.stop());

  it('signs in with a ticketing admin key: 201, the session body, an HttpOnly Strict Secure __Host- cookie', async () => {
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    assert.deepEqual(Object.keys(s.body).sort(), SESSION_KEYS);
    assert.equal(s.body.api, 'ticketing');
    assert.equal(s.body.organizationId, t.org.id);
    assert.equal(s.body.environment, 'live');
    assert.match(s.body.label, /admin live \(sk_live_/);
    assert.equal(s.res.headers.get('cache-control'), 'no-store');
    const setCookie = s.res.headers.getSetCookie()[0];
    assert.match(setCookie, /^__Host-settings_session=[A-Za-z0-9_-]{43}; /);
    for (const attr of ['Path=/', 'HttpOnly', 'SameSite=Strict', 'Secure', 'Max-Age=43200']) assert.ok(setCookie.split('; ').includes(attr), setCookie);
    // Redis holds the id's hash and ids only: neither the cookie's value nor the key
    const keys = await api.deps.redis.keys('websession:*');
    const stored = (await Promise.all(keys.map((k) => api.deps.redis.get(k)))).join('');
    assert.ok(!keys.join('').includes(s.cookie.split('=')[1]) && !stored.includes(s.cookie.split('=')[1]));
    assert.ok(!stored.includes(t.admin.key));

    const got = await api.request('GET', '/settings/session', { headers: withSession(s) });
    assert.equal(got.status, 200);
    assert.equal(got.body.csrfToken, s.csrf);
  });

  it('signs in with a ticketing access token; the session ends no later than the token', async () => {
    const token = await accessToken(api, t.testAdmin, t.org);
    const s = await signIn(api, { api: 'ticketing', credential: token });
    assert.equal(s.body.environment, 'test');
    assert.ok(Date.parse(s.body.expiresAt) <= clock.read().getTime() + 3600_000 + 1000);
  });

  it('signs in with a platform admin token and a push account', async () => {
    const p = await platformTenant(api);
    const ps = await signIn(api, { api: 'platform', credential: p.adminToken });
    assert.deepEqual([ps.body.api, ps.body.organizationId, ps.body.workspaceId, ps.body.environment], ['platform', p.organizationId, p.workspaceId, 'test']);
    const user = await registerAccount(api);
    const us = await signIn(api, { api: 'push', email: user.email, password: user.password });
    assert.deepEqual([us.body.api, us.body.label, us.body.workspaceId, us.body.environment], ['push', user.email, null, null]);
  });

  it('401 for a wrong credential, 403 for one that may not manage settings, 400 for a bad body', async () => {
    const p = await platformTenant(api);
    const user = await registerAccount(api);
    for (const body of [
      { api: 'ticketing', credential: 'sk_live_not-a-key' },
      { api: 'platform', credential: 'service_test_not-a-token' },
      { api: 'push', email: user.email, password: 'wrong password' },
    ]) {
      const res = await api.request('POST', '/settings/session', { body });
      assertError(res, 401, 'unauthorized');
      assert.equal(res.headers.getSetCookie().length, 0);
    }
    assertError(await api.request('POST', '/settings/session', { body: { api: 'ticketing', credential: t.readOnly.key } }), 403, 'forbidden');
    assertError(await api.request('POST', '/settings/session', { body: { api: 'platform', credential: p.agentToken } }), 403, 'forbidden');
    // another site may not sign a visitor in (login CSRF), even with a right credential
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const res = await api.request('POST', '/settings/session', { body: { api: 'ticketing', credential: t.admin.key }, headers });
      assertError(res, 403, 'forbidden');
      assert.equal(res.headers.getSetCookie().length, 0);
    }
    for (const body of [{}, { api: 'nope', credential: 'x' }, { api: 'push', credential: 'x' }, { api: 'ticketing', credential: '' }, { api: 'ticketing', credential: 'x'.repeat(5000) }]) {
      assertError(await api.request('POST', '/settings/session', { body }), 400, 'validation_error');
    }
  });

  it('GET without a session is 401; DELETE needs the CSRF token, then ends the session and clears the cookie', async () => {
    assertError(await api.request('GET', '/settings/session'), 401, 'unauthorized');
    assertError(await api.request('GET', '/settings/session', { headers: { cookie: '__Host-settings_session=forged' } }), 401);
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    assertError(await api.request('DELETE', '/settings/session', { headers: withSession(s) }), 403, 'forbidden');
    assertError(await api.request('DELETE', '/settings/session', { headers: withSession(s, 'x'.repeat(43)) }), 403, 'forbidden');
    const del = await api.request('DELETE', '/settings/session', { headers: withSession(s, s.csrf) });
    assert.equal(del.status, 204);
    assert.match(del.headers.getSetCookie()[0], /^__Host-settings_session=; .*Max-Age=0/);
    assertError(await api.request('GET', '/settings/session', { headers: withSession(s) }), 401);
    assertError(await api.request('GET', '/v1/auth/me', { headers: withSession(s) }), 401);
  });

  it('ends after 30 idle minutes; use moves the idle expiry on', async () => {
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    clock.advance(29 * 60_000);
    const kept = await api.request('GET', '/settings/session', { headers: withSession(s) });
    assert.equal(kept.status, 200);
    assert.equal(Date.parse(kept.body.idleExpiresAt), clock.read().getTime() + 30 * 60_000);
    clock.advance(29 * 60_000);
    assert.equal((await api.request('GET', '/v1/auth/me', { headers: withSession(s) })).status, 200);
    clock.advance(30 * 60_000);
    assertError(await api.request('GET', '/settings/session', { headers: withSession(s) }), 401);
  });

  it('ends 12 hours after sign-in however much it is used', async () => {
    const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
    assert.equal(Date.parse(s.body.expiresAt), clock.read().getTime() + 12 * 3600_000);
    for (let i = 0; i < 28; i++) {
      clock.advance(25 * 60_000);
      assert.equal((await api.request('GET', '/settings/session', { headers: withSession(s) })).status, 200, `step ${i}`);
    }
    clock.advance(25 * 60_000); // 12 h 5 min after sign-in, last used 25 minutes ago
    assertError(await api.request('GET', '/settings/session', { headers: withSession(s) }), 401);
  });
});

describe('settings sessions: configuration, throttle, Redis away', () => {
  it('without Secure (SESSION_COOKIE_SECURE=off) the cookie has no __Host- prefix; the lifetimes are configurable', async () => {
    const api = await startApi({ RATE_LIMITS: LIMITS, SESSION_COOKIE_SECURE: 'off', SESSION_ABSOLUTE_HOURS: '2', SESSION_IDLE_MINUTES: '5' });
    try {
      const t = await createAuthTenant(api.deps.db);
      const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
      const setCookie = s.res.headers.getSetCookie()[0];
      assert.match(setCookie, /^settings_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=7200$/);
      assert.equal(Date.parse(s.body.expiresAt) - Date.parse(s.body.idleExpiresAt), 2 * 3600_000 - 5 * 60_000);
      assert.equal((await api.request('GET', '/v1/auth/me', { headers: withSession(s) })).status, 200);
    } finally {
      await api.stop();
    }
  });

  it('throttles failed sign-ins per client address: 429 with Retry-After, even for a right credential', async () => {
    const api = await startApi({ RATE_LIMITS: `auth-failures=3,${GENEROUS_PLATFORM_LIMITS},${GENEROUS_PUSH_LIMITS}` });
    try {
      await api.deps.redis.del('settings:failures:{127.0.0.1}', 'settings:failures:{::ffff:127.0.0.1}');
      const t = await createAuthTenant(api.deps.db);
      for (let i = 0; i < 3; i++) assertError(await api.request('POST', '/settings/session', { body: { api: 'ticketing', credential: 'sk_live_wrong' } }), 401);
      const res = await api.request('POST', '/settings/session', { body: { api: 'ticketing', credential: t.admin.key } });
      assertError(res, 429, 'rate_limit_exceeded');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    } finally {
      await api.deps.redis.del('settings:failures:{127.0.0.1}', 'settings:failures:{::ffff:127.0.0.1}');
      await api.stop();
    }
  });

  it('Redis away: sign-in, GET and a session on an API route are 503 with Retry-After, never 500', async () => {
    const url = process.env.REDIS_URL!;
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(url).port) });
    const api = await startApi({ RATE_LIMITS: LIMITS, REDIS_URL: viaProxy(url, proxy) });
    try {
      const t = await createAuthTenant(api.deps.db);
      const s = await signIn(api, { api: 'ticketing', credential: t.admin.key });
      proxy.down();
      for (const [method, path, opts] of [
        ['POST', '/settings/session', { body: { api: 'ticketing', credential: t.admin.key } }],
        ['GET', '/settings/session', { headers: withSession(s) }],
        ['GET', '/v1/auth/me', { headers: withSession(s) }],
      ] as const) {
        const res = await api.request(method, path, opts);
        assertError(res, 503, 'service_unavailable');
        assert.ok(res.headers.get('retry-after'));
      }
    } finally {
      await proxy.close();
      await api.stop().catch(() => undefined);
    }
  });
});
