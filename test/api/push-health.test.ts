// GET /api/v1/health: the spec's shape, and a 503 naming the dependency that is down.
import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { startTcpProxy, viaProxy, type TcpProxy } from '../support/tcp-proxy';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, GENEROUS_PUSH_LIMITS, registerAccount } from '../support/push';

const target = (url: string) => ({ host: '127.0.0.1', port: Number(new URL(url).port) });

describe('push health', () => {
  it('answers {status, version, timestamp, checks} with both dependencies up, without auth', async () => {
    const api = await startApi({ RATE_LIMITS: GENEROUS_PUSH_LIMITS });
    try {
      const res = await api.request('GET', '/api/v1/health');
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
      assert.equal(res.body.version, require('../../package.json').version);
      assert.ok(!Number.isNaN(Date.parse(res.body.timestamp)));
      assert.deepEqual(res.body.checks, { database: 'ok', redis: 'ok' });
      assert.ok(res.headers.get('x-ratelimit-limit'));
    } finally {
      await api.stop();
    }
  });

  for (const dependency of ['redis', 'database'] as const) {
    it(`is a 503 naming ${dependency} when it is a dead port`, async () => {
      const url = dependency === 'redis' ? process.env.REDIS_URL! : process.env.DATABASE_URL!;
      const proxy: TcpProxy = await startTcpProxy(target(url));
      const through = viaProxy(url, proxy);
      let api: TestApi | undefined;
      try {
        api = await startApi({
          RATE_LIMITS: GENEROUS_PUSH_LIMITS,
          ...(dependency === 'redis' ? { REDIS_URL: through } : { DATABASE_URL: through }),
        });
        assert.equal((await api.request('GET', '/api/v1/health')).status, 200);
        proxy.down();
        const res = await api.request('GET', '/api/v1/health');
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.equal(res.body.status, 'unavailable');
        assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
        assert.equal(res.body.checks[dependency], 'down');
        assert.equal(res.body.checks[dependency === 'redis' ? 'database' : 'redis'], 'ok');
        assert.match(res.body.message, new RegExp(dependency));
        assert.ok(res.headers.get('retry-after'));
      } finally {
        await proxy.close();
        await api?.stop().catch(() => undefined);
      }
    });
  }

  for (const dependency of ['redis', 'database'] as const) {
    it(`an authenticated route answers 503 SERVICE_UNAVAILABLE with Retry-After when ${dependency} is cut, not 500`, async () => {
      const url = dependency === 'redis' ? process.env.REDIS_URL! : process.env.DATABASE_URL!;
      const proxy = await startTcpProxy(target(url));
      const through = viaProxy(url, proxy);
      let api: TestApi | undefined;
      try {
        api = await startApi({
          RATE_LIMITS: GENEROUS_PUSH_LIMITS,
          ...(dependency === 'redis' ? { REDIS_URL: through } : { DATABASE_URL: through }),
        });
        const user = await registerAccount(api);
        const key = await createKey(api, user.accessToken, (await createApp(api, user.accessToken)).id);
        assert.equal((await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) })).status, 200);
        proxy.down();
        // a user token and an API key (its lookup reads PostgreSQL): the kit's one classifier
        for (const headers of [bearer(user.accessToken), apiKeyHeader(key.key)]) {
          const res = await api.request('GET', '/api/v1/apps', { headers });
          assertPushError(res, 503, 'SERVICE_UNAVAILABLE');
          assert.ok(res.headers.get('retry-after'));
        }
      } finally {
        await proxy.close();
        await api?.stop().catch(() => undefined);
      }
    });
  }
});
