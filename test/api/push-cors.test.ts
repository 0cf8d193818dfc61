// CORS on the public push endpoints (docs/trial-onboarding.md, "CORS"): the first-party
// origins of CORS_ORIGINS get preflight answers and Access-Control-Allow-Origin on every
// answer, errors included; any other origin, or any other path, gets none.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { GENEROUS_PUSH_LIMITS, randomIp, startPushApi, uniqueEmail } from '../support/push';

const SITE = 'https://www.studio.example';
const APP = 'https://app.studio.example:8443';
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotent-Replayed';

let api: TestApi;
beforeAll(async () => {
  // per IP 3 a minute on POST /auth/*; each test's requests come from their own address (a trusted proxy's X-Forwarded-For)
  api = await startPushApi({
    CORS_ORIGINS: `${SITE}, HTTPS://App.Studio.Example:8443/`,
    RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-auth-ip=3`,
    TRUSTED_PROXIES: '127.0.0.0/8',
  });
});
afterAll(async () => api?.stop());

const preflight = (path: string, origin: string, requestHeaders = 'content-type,idempotency-key') =>
  api.request('OPTIONS', path, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders, 'x-forwarded-for': randomIp() },
  });
const post = (path: string, origin: string | undefined, body: unknown, ip = randomIp()) =>
  api.request('POST', path, { body, headers: { ...(origin ? { origin } : {}), 'x-forwarded-for': ip } });

const corsHeaders = (h: Headers) => [...h.keys()].filter((k) => k.startsWith('access-control-'));
const varies = (h: Headers) => (h.get('vary') ?? '').split(',').map((s) => s.trim().toLowerCase());

function assertAllowedPreflight(res: { status: number; headers: Headers }, origin: string) {
  assert.equal(res.status, 204);
  assert.equal(res.headers.get('access-control-allow-origin'), origin);
  assert.equal(res.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
  assert.equal(res.headers.get('access-control-allow-headers'), 'Content-Type, Idempotency-Key');
  assert.equal(res.headers.get('access-control-max-age'), '600');
  assert.equal(res.headers.get('access-control-allow-credentials'), null, 'no credentials mode');
  assert.ok(varies(res.headers).includes('origin'));
}

test('a preflight from a first-party origin is answered 204 on the auth paths and on /trial-requests', async () => {
  for (const path of ['/api/v1/auth/login', '/api/v1/auth/register', '/api/v1/auth/set-password', '/api/v1/trial-requests']) {
    assertAllowedPreflight(await preflight(path, SITE), SITE);
  }
  // the configured origin matched without letter case or its trailing slash; echoed as sent
  assertAllowedPreflight(await preflight('/api/v1/auth/login', APP), APP);
  assertAllowedPreflight(await preflight('/api/v1/auth/login', 'HTTPS://WWW.STUDIO.EXAMPLE'), 'HTTPS://WWW.STUDIO.EXAMPLE');
});

test('a header outside the list is not echoed (Authorization included): the browser then refuses the request', async () => {
  const res = await preflight('/api/v1/auth/login', SITE, 'content-type, authorization, x-evil');
  assertAllowedPreflight(res, SITE);
  assert.doesNotMatch(res.headers.get('access-control-allow-headers')!, /authorization|x-evil/i);
});

test('answers to a first-party origin carry Allow-Origin, Vary and the exposed rate-limit headers, errors included', async () => {
  const email = uniqueEmail('cors');
  const created = await post('/api/v1/auth/register', SITE, { email, password: 'correct horse battery', name: 'Robin' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const ok = await post('/api/v1/auth/login', APP, { email, password: 'correct horse battery' });
  const wrong = await post('/api/v1/auth/login', SITE, { email, password: 'not the password' });
  const invalid = await post('/api/v1/auth/login', SITE, { email: 'not-an-email' });
  for (const [res, status, origin] of [[created, 201, SITE], [ok, 200, APP], [wrong, 401, SITE], [invalid, 400, SITE]] as const) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.headers.get('access-control-allow-origin'), origin);
    assert.equal(res.headers.get('access-control-expose-headers'), EXPOSED);
    assert.ok(varies(res.headers).includes('origin'));
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  }
  assert.ok(ok.headers.get('x-ratelimit-limit'), 'the header the page may read is there');
});

test('the 429 of the per-IP limit carries Allow-Origin and exposes Retry-After', async () => {
  const ip = randomIp();
  let last;
  for (let i = 0; i < 4; i++) last = await post('/api/v1/auth/login', SITE, { email: uniqueEmail(), password: 'whatever it is' }, ip);
  assert.equal(last!.status, 429, JSON.stringify(last!.body));
  assert.ok(last!.headers.get('retry-after'));
  assert.equal(last!.headers.get('access-control-allow-origin'), SITE);
  assert.match(last!.headers.get('access-control-expose-headers')!, /Retry-After/);
});

test('any other origin gets no CORS header at all: preflight (the usual OPTIONS answer) and POST', async () => {
  for (const origin of ['https://evil.example', 'https://www.studio.example.evil.example', 'http://www.studio.example', 'https://www.studio.example/path', 'null']) {
    const pre = await preflight('/api/v1/auth/login', origin);
    assert.equal(pre.status, 204, origin);
    assert.equal(pre.headers.get('allow'), 'POST, OPTIONS');
    assert.deepEqual(corsHeaders(pre.headers), [], origin);
    const res = await post('/api/v1/auth/login', origin, { email: uniqueEmail(), password: 'whatever it is' });
    assert.equal(res.status, 401);
    assert.deepEqual(corsHeaders(res.headers), [], origin);
    assert.ok(varies(res.headers).includes('origin'), 'a cache keeps the answers of different origins apart');
  }
  const none = await post('/api/v1/auth/login', undefined, { email: uniqueEmail(), password: 'whatever it is' });
  assert.deepEqual(corsHeaders(none.headers), []);
});

test('other paths get no CORS headers, even from a first-party origin', async () => {
  // registered from an address of its own: 127.0.0.1's per-IP bucket (in Redis) is shared with other test files
  const account = await post('/api/v1/auth/register', undefined, { email: uniqueEmail('cors'), password: 'correct horse battery', name: 'Robin' });
  assert.equal(account.status, 201, JSON.stringify(account.body));
  for (const path of ['/api/v1/auth/me', '/api/v1/apps', '/v1/auth/token']) {
    const pre = await preflight(path, SITE);
    assert.deepEqual(corsHeaders(pre.headers), [], path);
  }
  const me = await api.request('GET', '/api/v1/auth/me', { token: account.body.accessToken, headers: { origin: SITE } });
  assert.equal(me.status, 200);
  assert.deepEqual(corsHeaders(me.headers), []);
});
