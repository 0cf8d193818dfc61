// Helpers of the trial onboarding tests: a request submitted over HTTP as the public form
// sends it, and a super-admin (an account made over HTTP, given the role the way an
// operator is given it: through the repository, as bootstrap does).
import assert from 'node:assert/strict';
import { makePushSuperAdmin } from '../../db/repositories/push-demo';
import type { TestApi, TestResponse } from './api';
import { bearer, registerAccount, uniqueEmail, type PushAccount } from './push';

export function trialForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyName: 'Pixel Forge',
    fullName: 'Robin Example',
    email: uniqueEmail('trial'),
    website: 'https://pixelforge.example',
    useCase: 'Re-engagement pushes for our RPG',
    expectedMonthlyNotifications: 250000,
    requestedPlanSlug: 'growth',
    ...overrides,
  };
}

/** POST /trial-requests as the public form sends it. */
export async function submitTrial(api: TestApi, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<TestResponse> {
  return api.request('POST', '/api/v1/trial-requests', { body: trialForm(overrides), headers });
}

export async function superAdmin(api: TestApi): Promise<PushAccount> {
  const account = await registerAccount(api, { email: uniqueEmail('operator') });
  await makePushSuperAdmin(api.deps.db, account.userId);
  return account;
}

/** An operator's call: `POST|GET /api/v1/admin/trial-requests<path>`. */
export function adminCall(api: TestApi, token: string) {
  return (method: 'GET' | 'POST', path: string, body?: unknown) =>
    api.request(method, `/api/v1/admin/trial-requests${path}`, { headers: bearer(token), ...(body === undefined ? {} : { body }) });
}

export function assertSummary(body: any, email: string): void {
  assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'email', 'id', 'status']);
  assert.equal(body.email, email);
}
