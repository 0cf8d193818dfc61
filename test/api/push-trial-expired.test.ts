// docs/push.md, "Ownership": an expired trial makes the company's tokens and API keys
// answer 403 TRIAL_EXPIRED; extending the trial makes them work again at once.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, createApp, createKey, registerAccount, startPushApi } from '../support/push';
import { setTrialEnd } from '../support/push-account-factories';

describe('push trial expiry', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPushApi();
  });
  afterAll(async () => api?.stop());

  it('403 TRIAL_EXPIRED for tokens and keys once trialEndsAt has passed; an extension works at once', async () => {
    const user = await registerAccount(api);
    const app = await createApp(api, user.accessToken);
    const key = await createKey(api, user.accessToken, app.id);

    await setTrialEnd(api.deps.db, user.userId, 86_400);
    assert.equal((await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) })).status, 200, 'a running trial works');

    await setTrialEnd(api.deps.db, user.userId, -1);
    const byToken = await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) });
    assertPushError(byToken, 403, 'TRIAL_EXPIRED');
    assert.ok(byToken.headers.get('x-ratelimit-limit'), 'counted like any authenticated request');
    assertPushError(await api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) }), 403, 'TRIAL_EXPIRED');
    assertPushError(await api.request('GET', '/api/v1/auth/me', { headers: bearer(user.accessToken) }), 403, 'TRIAL_EXPIRED');

    await setTrialEnd(api.deps.db, user.userId, 7 * 86_400);
    assert.equal((await api.request('GET', '/api/v1/apps', { headers: bearer(user.accessToken) })).status, 200);
    assert.equal((await api.request('GET', `/api/v1/apps/${app.id}`, { headers: apiKeyHeader(key.key) })).status, 200);
  });
});
