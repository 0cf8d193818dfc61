// The setup token's 7 days on the request path, at the exact boundary: the API reads the
// one injectable clock (AppDeps.clock), so this test stands a millisecond before the
// token's expiry (valid, and the password can be set) and at it (invalid, refused), with a
// token made the way the trial workflow's activities make it. The workflow's own timer at
// 7 days: test/workflows/trial-request-timers.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { GENEROUS_PUSH_LIMITS, assertPushError, uniqueEmail } from '../support/push';
import { startApi, type TestApi } from '../support/api';
import { trialForm } from '../support/trial-requests';
import { insertTrialRequest } from '../../db/repositories/push-trial-requests';
import { registerPushAccount } from '../../domain/auth/register-push-account';
import { provisionTrial } from '../../domain/onboarding/decide-trial-request';
import { issueSetupToken } from '../../domain/onboarding/setup-tokens';
import { masterKey } from '../../lib/crypto/master-key';
import { setupTokenKey, setupTokenOf } from '../../lib/setup-tokens';
import { SETUP_TOKEN_TTL_MS } from '../../workflows/onboarding/contract';

let api: TestApi;
let now = new Date();
beforeAll(async () => {
  api = await startApi({ RATE_LIMITS: GENEROUS_PUSH_LIMITS }, { clock: () => now });
});
afterAll(async () => api?.stop());

/** An approved trial's first setup token, made at `createdAt`. */
async function tokenMadeAt(createdAt: Date) {
  const db = api.deps.db;
  const email = uniqueEmail('clock');
  const { id: requestId } = (await insertTrialRequest(db, trialForm({ email }) as any))!;
  const operator = await registerPushAccount(db, { email: uniqueEmail('op'), name: 'Op', password: 'correct horse battery' });
  await provisionTrial(db, { requestId, planSlug: 'growth', trialDays: 14, adminNotes: null, actorId: operator.user.id, trialEndsAt: new Date(createdAt.getTime() + 14 * 86_400_000) });
  const tokenId = randomUUID();
  const expiresAt = new Date(createdAt.getTime() + SETUP_TOKEN_TTL_MS);
  await issueSetupToken(db, setupTokenKey(masterKey(api.deps.config)), { requestId, tokenId, purpose: 'email', createdAt, expiresAt, actorId: null });
  return { email, token: setupTokenOf(setupTokenKey(masterKey(api.deps.config)), tokenId), expiresAt };
}

const info = (token: string) => api.request('POST', '/api/v1/auth/setup-token', { body: { token } });
const setPassword = (token: string) => api.request('POST', '/api/v1/auth/set-password', { body: { token, password: 'a brand new password' } });

test('a millisecond before 7 days: valid, with who it is for; at 7 days: invalid, and set-password refused', async () => {
  const t = await tokenMadeAt(new Date());
  now = new Date(t.expiresAt.getTime() - 1);
  const before = await info(t.token);
  assert.equal(before.body.isValid, true);
  assert.equal(before.body.email, t.email);
  assert.equal(before.body.expiresAt, t.expiresAt.toISOString());

  now = t.expiresAt;
  assert.deepEqual((await info(t.token)).body, { email: null, fullName: null, companyName: null, expiresAt: null, isValid: false });
  assertPushError(await setPassword(t.token), 400, 'VALIDATION_FAILED');
});

test('the password set a millisecond before the end; the token is spent after it', async () => {
  const t = await tokenMadeAt(new Date());
  now = new Date(t.expiresAt.getTime() - 1);
  const set = await setPassword(t.token);
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.user.email, t.email);
  assert.equal((await info(t.token)).body.isValid, false);
});
