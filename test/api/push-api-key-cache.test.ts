// The push API key cache (api/push/auth/api-key-cache.ts): each API process remembers a
// key's lookup for 30 s, and still a deleted key (or a deleted app's key) is refused by
// every process on the very next request, and a trial's end counts at once. Two app
// instances with their own caches stand for two API processes; they share Postgres and
// Redis as two processes do.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { pushKeyCacheStats } from '../../api/push/auth';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, registerAccount, startPushApi } from '../support/push';
import { setTrialEnd } from '../support/push-account-factories';

describe('push API key cache', () => {
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    [a, b] = await Promise.all([startPushApi(), startPushApi()]);
  });
  afterAll(async () => Promise.all([a?.stop(), b?.stop()]));

  async function keyUsedOnB(beforeFirstUse?: (userId: string) => Promise<unknown>) {
    const user = await registerAccount(a);
    const app = await createApp(a, user.accessToken);
    const key = await createKey(a, user.accessToken, app.id);
    await beforeFirstUse?.(user.userId);
    const read = () => b.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) });
    assert.equal((await read()).status, 200, 'B looks the key up and caches it');
    return { user, app, key, read };
  }

  it('serves a known key from the cache: one lookup, then hits', async () => {
    const { read } = await keyUsedOnB();
    const before = pushKeyCacheStats();
    assert.equal((await read()).status, 200);
    assert.equal((await read()).status, 200);
    const after = pushKeyCacheStats();
    assert.equal(after.hits - before.hits, 2);
    assert.equal(after.misses - before.misses, 0);
  });

  it('DELETE /api-keys/{id} on one process: refused by another that cached it, on the next request', async () => {
    const { user, key, read } = await keyUsedOnB();
    assert.equal((await a.request('DELETE', `/api/v1/api-keys/${key.id}`, { headers: bearer(user.accessToken) })).status, 204);
    assertPushError(await read(), 401, 'UNAUTHORIZED');
    const register = await b.request('POST', '/api/v1/devices/register', {
      headers: apiKeyHeader(key.key),
      body: { deviceToken: 'after-revocation', platform: 'Android' },
    });
    assertPushError(register, 401, 'UNAUTHORIZED');
  });

  it('DELETE /apps/{id} on one process: its keys are refused by another that cached them (401, not 404)', async () => {
    const { user, app, read } = await keyUsedOnB();
    assert.equal((await a.request('DELETE', `/api/v1/apps/${app.id}`, { headers: bearer(user.accessToken) })).status, 204);
    assertPushError(await read(), 401, 'UNAUTHORIZED');
  });

  it("a cached key's company: a trial's end counts at once, an extension too", async () => {
    // cached by B while the trial runs; its end passes while the row sits in the cache
    const { user, read } = await keyUsedOnB((userId) => setTrialEnd(a.deps.db, userId, 2));
    await new Promise((r) => setTimeout(r, 2100));
    assertPushError(await read(), 403, 'TRIAL_EXPIRED');
    await setTrialEnd(a.deps.db, user.userId, 7 * 86_400);
    assert.equal((await read()).status, 200);
  });
});
