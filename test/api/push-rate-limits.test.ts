// The push Limits table over HTTP, each limit set small through RATE_LIMITS (the one
// documented override): per IP on POST /auth/* (the socket address; X-Forwarded-For only
// from TRUSTED_PROXIES), per token elsewhere, per key on the SDK groups; X-RateLimit-* on
// every answer and 429 RATE_LIMITED with Retry-After in the push envelope.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { TestApi } from '../support/api';
import { pushAuth } from '../../api/push/auth';
import { errorHandler } from '../../api/kit/error-middleware';
import { pushEnvelope } from '../../api/kit/envelopes';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, GENEROUS_PUSH_LIMITS, randomIp, registerAccount, startPushApi, uniqueEmail } from '../support/push';

/** A loopback address of our own (127.x.y.z), so this run's per-IP bucket is nobody else's. */
const randomLoopback = () => `127.${1 + (randomBytes(1)[0] % 250)}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

/** A POST from a chosen local address (the socket address the server sees). */
function postFrom(baseUrl: string, localAddress: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const url = new URL(baseUrl + path);
  const data = JSON.stringify(body);
  return new Promise<{ status: number; headers: Record<string, any>; body: any }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const login = (email: string) => ({ email, password: 'wrong password' });

describe('push rate limits', () => {
  describe('POST /auth/*: 3 a minute per IP (RATE_LIMITS push-auth-ip=3)', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-auth-ip=3`, TRUSTED_PROXIES: '' });
    });
    afterAll(async () => api?.stop());

    it('counts the socket address across the auth routes; the 4th is a 429 with Retry-After; a client-sent X-Forwarded-For changes nothing', async () => {
      const from = randomLoopback();
      const answers = [];
      // every request claims another address: not believed without TRUSTED_PROXIES
      answers.push(await postFrom(api.baseUrl, from, '/api/v1/auth/login', login(uniqueEmail()), { 'x-forwarded-for': randomIp() }));
      answers.push(await postFrom(api.baseUrl, from, '/api/v1/auth/refresh', { refreshToken: 'prt_x' }, { 'x-forwarded-for': randomIp() }));
      answers.push(await postFrom(api.baseUrl, from, '/api/v1/auth/register', {}, { 'x-forwarded-for': randomIp() }));
      assert.deepEqual(answers.map((a) => a.status), [401, 401, 400]);
      assert.deepEqual(answers.map((a) => a.headers['x-ratelimit-remaining']), ['2', '1', '0']);
      for (const a of answers) assert.equal(a.headers['x-ratelimit-limit'], '3');

      const limited = await postFrom(api.baseUrl, from, '/api/v1/auth/login', login(uniqueEmail()), { 'x-forwarded-for': randomIp() });
      assertPushError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');

      // another address has its own window
      const other = await postFrom(api.baseUrl, randomLoopback(), '/api/v1/auth/login', login(uniqueEmail()));
      assert.equal(other.status, 401);
    });
  });

  describe('behind a trusted proxy (TRUSTED_PROXIES=127.0.0.0/8)', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-auth-ip=2`, TRUSTED_PROXIES: '127.0.0.0/8' });
    });
    afterAll(async () => api?.stop());

    it('keys on the client address the proxy forwarded', async () => {
      const client = randomIp();
      const h = { headers: { 'x-forwarded-for': client } };
      assert.equal((await api.request('POST', '/api/v1/auth/login', { ...h, body: login(uniqueEmail()) })).status, 401);
      assert.equal((await api.request('POST', '/api/v1/auth/login', { ...h, body: login(uniqueEmail()) })).status, 401);
      assertPushError(await api.request('POST', '/api/v1/auth/login', { ...h, body: login(uniqueEmail()) }), 429, 'RATE_LIMITED');
      // a client's own claim left of the proxy's hop is ignored: the proxy saw `client`
      assertPushError(
        await api.request('POST', '/api/v1/auth/login', { headers: { 'x-forwarded-for': `${randomIp()}, ${client}` }, body: login(uniqueEmail()) }),
        429,
        'RATE_LIMITED',
      );
      const other = await api.request('POST', '/api/v1/auth/login', { headers: { 'x-forwarded-for': randomIp() }, body: login(uniqueEmail()) });
      assert.equal(other.status, 401);
    });
  });

  describe('everything else: per token (RATE_LIMITS push-token=4)', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-token=4` });
    });
    afterAll(async () => api?.stop());

    it("a user's requests share one window (a new login does not reset it); an API key has its own", async () => {
      const user = await registerAccount(api);
      const app = await createApp(api, user.accessToken); // 1
      const key = await createKey(api, user.accessToken, app.id); // 2
      const me = await api.request('GET', '/api/v1/auth/me', { headers: bearer(user.accessToken) }); // 3
      assert.equal(me.headers.get('x-ratelimit-limit'), '4');
      assert.equal(me.headers.get('x-ratelimit-remaining'), '1');
      const relogin = await api.request('POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
      assert.equal((await api.request('GET', '/api/v1/apps', { headers: bearer(relogin.body.accessToken) })).status, 200); // 4
      const limited = await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) });
      assertPushError(limited, 429, 'RATE_LIMITED');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);

      const byKey = await api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) });
      assert.equal(byKey.status, 200);
      assert.equal(byKey.headers.get('x-ratelimit-remaining'), '3');
    });

    it('an answer without a usable credential carries X-RateLimit-* too (its window is per IP)', async () => {
      const res = await api.request('GET', '/api/v1/apps', { headers: bearer('nope') });
      assertPushError(res, 401, 'UNAUTHORIZED');
      assert.ok(res.headers.get('x-ratelimit-limit'));
      assert.ok(res.headers.get('x-ratelimit-remaining'));
      assert.ok(res.headers.get('x-ratelimit-reset'));
    });
  });

  describe("the SDK groups: pushAuth with a route's limit group, per API key", () => {
    let api: TestApi;
    let server: ReturnType<Koa['listen']>;
    let base: string;
    beforeAll(async () => {
      api = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-notifications-send=2,push-devices-register=3` });
      // the routes of the devices and sending helpers mount pushAuth exactly like this
      const app = new Koa();
      app.use(errorHandler({ logger: api.deps.logger, envelopes: [['', pushEnvelope]], allowedMethods: () => [], bodyLimit: '1mb' }));
      const router = new Router();
      router.post('/send', pushAuth(api.deps, { schemes: ['apiKey'], limit: 'push-notifications-send' }), (ctx) => {
        ctx.status = 202;
      });
      router.post('/register', pushAuth(api.deps, { schemes: ['apiKey'], limit: 'push-devices-register' }), (ctx) => {
        ctx.body = {};
      });
      app.use(router.routes());
      server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server?.close();
      await api?.stop();
    });

    it('each group has its own window per key, with the group limit in the headers', async () => {
      const user = await registerAccount(api);
      const app = await createApp(api, user.accessToken);
      const key = await createKey(api, user.accessToken, app.id);
      const post = (path: string, k = key.key) => fetch(base + path, { method: 'POST', headers: apiKeyHeader(k) });
      const sends = [await post('/send'), await post('/send'), await post('/send')];
      assert.deepEqual(sends.map((r) => r.status), [202, 202, 429]);
      assert.equal(sends[0].headers.get('x-ratelimit-limit'), '2');
      const body = (await sends[2].json()) as { code: string };
      assert.equal(body.code, 'RATE_LIMITED');
      assert.ok(sends[2].headers.get('retry-after'));
      const reg = await post('/register');
      assert.equal(reg.status, 200);
      assert.equal(reg.headers.get('x-ratelimit-limit'), '3');
      // a user token is not accepted where only API keys are
      const byUser = await fetch(base + '/send', { method: 'POST', headers: bearer(user.accessToken) });
      assert.equal(byUser.status, 401);
      // another key of the same app has its own window
      const key2 = await createKey(api, user.accessToken, app.id);
      assert.equal((await post('/send', key2.key)).status, 202);
    });
  });
});
