// Trial requests over HTTP without the workflow's decisions: the public submission (201,
// the summary only, the open request of an email answered again, bad input, its per-IP
// limit), the super-admin gate (401, 403, a lost role refused at once), the list (paged,
// by status, never a token) and token info for a token nobody has. The approval flow with
// the onboarding worker: test/e2e/trial-onboarding.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { assertPushError, bearer, GENEROUS_PUSH_LIMITS, randomIp, registerAccount, startPushApi, uniqueEmail } from '../support/push';
import { adminCall, assertSummary, submitTrial, superAdmin, trialForm } from '../support/trial-requests';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import { trialRequestWorkflowId } from '../../workflows/onboarding/contract';

describe('push trial requests', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPushApi();
  });
  afterAll(async () => api?.stop());

  it('POST /trial-requests (public): 201 with the summary only; the same email again (any case) answers that request (200)', async () => {
    const email = uniqueEmail('trial');
    const first = await submitTrial(api, { email });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assertSummary(first.body, email);
    assert.equal(first.body.status, 'Submitted');
    const again = await submitTrial(api, { email: email.toUpperCase(), companyName: 'Other' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body);
  });

  it('bad input: 400 naming the field; nothing stored', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'not-an-email' }, 'email'],
      [{ companyName: ' ' }, 'companyName'],
      [{ website: 'javascript:alert(1)' }, 'website'],
      [{ expectedMonthlyNotifications: 1.5 }, 'expectedMonthlyNotifications'],
      [{ expectedMonthlyNotifications: '100' }, 'expectedMonthlyNotifications'],
      [{ requestedPlanSlug: 'no spaces' }, 'requestedPlanSlug'],
      [{ useCase: 'a\u0000b' }, 'useCase'],
      [{ extra: true }, ''],
    ];
    for (const [patch, field] of cases) {
      const email = uniqueEmail('bad');
      const res = await submitTrial(api, { ...patch, ...(patch.email ? {} : { email }) });
      assertPushError(res, 400, 'VALIDATION_FAILED');
      if (field) assert.ok(Object.keys(res.body.errors).some((k) => k.includes(field)), `${field}: ${JSON.stringify(res.body)}`);
    }
  });

  it('the request and its workflow exist together: the outbox holds trial-request/<id>', async () => {
    const res = await submitTrial(api);
    const start = await findWorkflowStart(api.deps.db, trialRequestWorkflowId(res.body.id));
    // the onboarding worker's dispatcher may have started it (and dropped the entry) already
    if (start) assert.equal(start.taskQueue, 'onboarding');
  });

  it('admin paths: no token 401, an API-key-less user without the role 403, a super-admin 200; a lost role is refused at once', async () => {
    assertPushError(await api.request('GET', '/api/v1/admin/trial-requests'), 401, 'UNAUTHORIZED');
    const user = await registerAccount(api);
    assertPushError(await adminCall(api, user.accessToken)('GET', ''), 403, 'FORBIDDEN');
    assertPushError(await adminCall(api, user.accessToken)('POST', `/${randomUUID()}/approve`, { planSlug: 'growth', trialDays: 14 }), 403, 'FORBIDDEN');
    const op = await superAdmin(api);
    assert.equal((await adminCall(api, op.accessToken)('GET', '')).status, 200);
    await api.deps.db.query(`UPDATE push_users SET is_super_admin = false WHERE id = $1`, [op.userId]);
    assertPushError(await adminCall(api, op.accessToken)('GET', ''), 403, 'FORBIDDEN');
  });

  it('the list: paged, newest first, filtered by status, never a token; one request by id; unknown ids 404', async () => {
    const op = await superAdmin(api);
    const call = adminCall(api, op.accessToken);
    const mine = await submitTrial(api, trialForm());
    const page = await call('GET', '?status=submitted&pageSize=5');
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(Object.keys(page.body).sort(), ['items', 'page', 'pageSize', 'total', 'totalPages']);
    assert.ok(page.body.items.length <= 5 && page.body.items.every((r: any) => r.status === 'Submitted'));
    assert.equal(page.body.items[0].id, mine.body.id, 'newest first');
    const one = await call('GET', `/${mine.body.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.companyName, 'Pixel Forge');
    assert.deepEqual(one.body.setupEmail, { state: 'none', attempts: 0, lastAttemptAt: null, provider: null, providerMessageId: null, lastError: null, lastLinkGeneratedAt: null });
    assert.doesNotMatch(JSON.stringify(page.body) + JSON.stringify(one.body), /token/i);
    assertPushError(await call('GET', `/${randomUUID()}`), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await call('GET', '/not-a-uuid'), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await call('GET', '?status=Pending'), 400, 'VALIDATION_FAILED');
    assertPushError(await call('POST', `/${mine.body.id}/reject`, { adminNotes: '   ' }), 400, 'VALIDATION_FAILED');
    assertPushError(await call('POST', `/${mine.body.id}/approve`, { planSlug: 'growth', trialDays: 0 }), 400, 'VALIDATION_FAILED');
    assertPushError(await call('POST', `/${mine.body.id}/approve`, { planSlug: 'growth', trialDays: 91 }), 400, 'VALIDATION_FAILED');
  });

  it('token info for a token nobody has: isValid false, every field null; set-password with it: 400 naming token', async () => {
    const info = await api.request('POST', '/api/v1/auth/setup-token', { body: { token: 'x'.repeat(43) } });
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.deepEqual(info.body, { email: null, fullName: null, companyName: null, expiresAt: null, isValid: false });
    assert.equal(info.headers.get('cache-control'), 'no-store');
    const set = await api.request('POST', '/api/v1/auth/set-password', { body: { token: 'x'.repeat(43), password: 'correct horse battery' } });
    assertPushError(set, 400, 'VALIDATION_FAILED');
    assert.ok(set.body.errors.token);
  });

  describe('the public per-IP limit (RATE_LIMITS push-trial-ip=2)', () => {
    let limited: TestApi;
    beforeAll(async () => {
      limited = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-trial-ip=2`, TRUSTED_PROXIES: '127.0.0.1,::1' });
    });
    afterAll(async () => limited?.stop());

    it('the third submission from one address in a minute is 429 with Retry-After; another address is not affected', async () => {
      const ip = randomIp();
      const from = (addr: string) => submitTrial(limited, {}, { 'x-forwarded-for': addr });
      assert.equal((await from(ip)).status, 201);
      assert.equal((await from(ip)).status, 201);
      const third = await from(ip);
      assertPushError(third, 429, 'RATE_LIMITED');
      assert.ok(Number(third.headers.get('retry-after')) > 0);
      assert.equal((await from(randomIp())).status, 201);
    });
  });
});
