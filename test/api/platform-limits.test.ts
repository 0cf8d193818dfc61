// The platform spec's Limits over HTTP: reads and writes counted apart per token on a
// rolling 60 s window (set small through RATE_LIMITS, the one documented override),
// X-RateLimit-* on every authenticated answer, the (limit+1)th a 429 `rate_limited` with
// Retry-After in whole seconds; the defaults 120 and 60; an organisation's own limits
// (`npm run admin -- set-limits`) shown in X-RateLimit-Limit.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve, join } from 'node:path';
import { promisify } from 'node:util';
import { PLATFORM_LIMIT_DEFAULTS, platformLimits } from '../../api/platform/auth/limits';
import { platformTokens } from '../../api/platform/auth/token-cache';
import type { AppDeps } from '../../api/deps';
import { loadConfig } from '../../lib/config';
import { startApi, type TestApi, type TestResponse } from '../support/api';
import { assertPlatformError, platformTenant } from '../support/platform';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const BASE = 'auth-failures=100000,platform-anonymous-ip=100000';

function assertHeaders(res: TestResponse, limit: number, remaining: number) {
  assert.equal(res.headers.get('x-ratelimit-limit'), String(limit), `limit of ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.headers.get('x-ratelimit-remaining'), String(remaining));
  const reset = res.headers.get('x-ratelimit-reset');
  assert.match(reset ?? '', /^[0-9]+$/);
  assert.ok(Number(reset) >= 0 && Number(reset) <= 60, String(reset));
}

function assertLimited(res: TestResponse, limit: number) {
  assertPlatformError(res, 429, 'rate_limited');
  const retryAfter = res.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^[0-9]+$/, 'Retry-After in whole seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter);
  assertHeaders(res, limit, 0);
}

describe('small limits (RATE_LIMITS platform-read=3,platform-write=2)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: `${BASE},platform-read=3,platform-write=2` });
  });
  afterAll(() => api?.stop());

  it('the 4th read in the window is a 429 with Retry-After; writes have their own window; a second token its own', async () => {
    const t = await platformTenant(api);
    const get = (token: string) => api.request('GET', '/platform/v1/auth/tokens', { token });
    for (const remaining of [2, 1, 0]) {
      const res = await get(t.agentToken);
      assert.equal(res.status, 200);
      assertHeaders(res, 3, remaining);
    }
    assertLimited(await get(t.agentToken), 3);
    assertLimited(await get(t.agentToken), 3);

    // writes are counted apart: the read window is full, the write window is not
    const made = await api.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'second', workspace_id: t.workspaceId, environment: 'test' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assertHeaders(made, 2, 1);
    // a refused write is an answer like any other: it carries the headers and takes its slot
    const bad = await api.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'bad', workspace_id: t.workspaceId, environment: 'prod' } });
    assertPlatformError(bad, 400, 'validation_failed');
    assertHeaders(bad, 2, 0);
    assertLimited(await api.request('DELETE', `/platform/v1/auth/tokens/${made.body.id}`, { token: t.agentToken }), 2);

    // the new token (same user) has windows of its own
    const own = await get(made.body.token);
    assert.equal(own.status, 200);
    assertHeaders(own, 3, 2);
    const del = await api.request('DELETE', `/platform/v1/auth/tokens/${made.body.id}`, { token: made.body.token });
    assert.equal(del.status, 204);
    assertHeaders(del, 2, 1);

    // and another tenant's tokens are untouched by all this
    const other = await platformTenant(api);
    assertHeaders(await get(other.agentToken), 3, 2);
  });

  it('a request without a usable token is counted per client IP, not against any token', async () => {
    const t = await platformTenant(api);
    const res = await api.request('GET', '/platform/v1/auth/tokens', { token: `service_test_${'x'.repeat(43)}` });
    assertPlatformError(res, 401, 'unauthorized');
    assert.equal(res.headers.get('x-ratelimit-limit'), '100000');
    assertHeaders(await api.request('GET', '/platform/v1/auth/tokens', { token: t.agentToken }), 3, 2);
  });
});

describe('the defaults: 120 reads and 60 writes a minute per token', () => {
  it('without RATE_LIMITS the groups are 120 and 60', () => {
    const config = loadConfig({ ...process.env, RATE_LIMITS: '' });
    assert.equal(config.rateLimits, undefined);
    const limits = platformLimits({ config } as AppDeps);
    assert.equal(limits.limitOf('platform-read'), 120);
    assert.equal(limits.limitOf('platform-write'), 60);
    assert.deepEqual(PLATFORM_LIMIT_DEFAULTS, { 'platform-read': 120, 'platform-write': 60, 'platform-anonymous-ip': 120 });
    // an organisation's override wins; RATE_LIMITS names only change the defaults
    assert.equal(limits.limitOf('platform-read', 1000), 1000);
    const lifted = platformLimits({ config: loadConfig({ ...process.env, RATE_LIMITS: 'platform-read=7,starter=5' }) } as AppDeps);
    assert.equal(lifted.limitOf('platform-read'), 7);
    assert.equal(lifted.limitOf('platform-write'), 60);
  });
});

describe('an organisation’s own limits (npm run admin -- set-limits)', () => {
  let api: TestApi;
  const admin = (...args: string[]) => run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args], { cwd: ROOT, env: process.env });
  beforeAll(async () => {
    // RATE_LIMITS without platform groups: the spec's numbers
    api = await startApi({ RATE_LIMITS: BASE });
  });
  afterAll(() => api?.stop());

  const limitsSeen = async (a: TestApi, t: { agentToken: string; workspaceId: string }) => {
    const read = await a.request('GET', '/platform/v1/auth/tokens', { token: t.agentToken });
    const write = await a.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'w', workspace_id: t.workspaceId, environment: 'test' } });
    assert.equal(read.status, 200);
    assert.equal(write.status, 201);
    return [Number(read.headers.get('x-ratelimit-limit')), Number(write.headers.get('x-ratelimit-limit'))];
  };

  it('shows in X-RateLimit-Limit: at once in a fresh API process, within the token cache’s 30 s in a running one; `default` restores 120 / 60', async () => {
    const t = await platformTenant(api);
    const other = await platformTenant(api);
    assert.deepEqual(await limitsSeen(api, t), [120, 60]);

    const { stdout } = await admin('set-limits', t.organizationId, '1000', '500');
    assert.deepEqual(JSON.parse(stdout), { organizationId: t.organizationId, readLimit: 1000, writeLimit: 500 });
    const fresh = await startApi({ RATE_LIMITS: BASE });
    try {
      assert.deepEqual(await limitsSeen(fresh, t), [1000, 500]);
      assert.deepEqual(await limitsSeen(fresh, other), [120, 60], 'only that organisation');
    } finally {
      await fresh.stop();
    }
    // the running API keeps the cached row (up to 30 s) until it forgets it
    assert.deepEqual(await limitsSeen(api, t), [120, 60]);
    platformTokens(api.deps).forgetUser(t.agentUserId);
    assert.deepEqual(await limitsSeen(api, t), [1000, 500]);

    await admin('set-limits', t.organizationId, 'default', 'default');
    platformTokens(api.deps).forgetUser(t.agentUserId);
    assert.deepEqual(await limitsSeen(api, t), [120, 60]);
  });

  it('refuses an unknown organisation or a limit that is not a whole number from 1 to 1,000,000 (exit 2)', async () => {
    const t = await platformTenant(api);
    for (const args of [
      ['org_00000000000000000000000000', '10', '10'],
      [t.organizationId, '0', '10'],
      [t.organizationId, '1.5', '1000001'],
      [t.organizationId, '10'],
    ]) {
      const err: any = await admin('set-limits', ...args).then(() => null, (e) => e);
      assert.ok(err, `set-limits ${args.join(' ')} succeeded`);
      assert.equal(err.code, 2, err.stderr);
      assert.match(err.stderr, /set-limits/);
    }
    const { rows } = await api.deps.db.query(`SELECT read_limit, write_limit FROM platform_organizations WHERE id = $1`, [t.organizationId]);
    assert.deepEqual(rows[0], { read_limit: null, write_limit: null });
  });
});
