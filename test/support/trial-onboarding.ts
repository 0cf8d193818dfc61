// Trial onboarding helpers of the tests: a super-admin (a registered account given the
// role through the repository, as the bootstrap does for the local stack), a submitted
// trial request, and the set-password link of a received email.
import assert from 'node:assert/strict';
import type { TestApi } from './api';
import type { ReceivedMail } from './mail';
import { setPushSuperAdmin } from '../../db/repositories/push-users';
import { registerAccount, type PushAccount } from './push';

export async function registerSuperAdmin(api: TestApi, opts: { email?: string; password?: string } = {}): Promise<PushAccount> {
  const account = await registerAccount(api, { ...opts, name: 'Operator' });
  await setPushSuperAdmin(api.deps.db, account.userId, true);
  return account;
}

export interface TrialRequestInput {
  email: string;
  companyName: string;
  fullName: string;
  requestedPlanSlug: string;
}

/** POST /api/v1/trial-requests as the public form sends it; answers the new request's id. */
export async function submitTrialRequest(api: TestApi, r: TrialRequestInput): Promise<string> {
  const res = await api.request('POST', '/api/v1/trial-requests', {
    body: { ...r, website: 'https://pixelforge.example', useCase: 'Re-engagement pushes for our RPG', expectedMonthlyNotifications: 250_000 },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** The body of a mail as text: quoted-printable soft breaks and escapes undone. */
function decodedBody(raw: string): string {
  const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n\n');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The set-password link (`…/setup-password?token=…`) in a received email. */
export function setupLinkIn(mail: ReceivedMail): URL {
  const match = decodedBody(mail.raw).match(/https?:\/\/\S+\/setup-password\?token=[A-Za-z0-9_-]+/);
  assert.ok(match, `no set-password link in ${mail.raw}`);
  return new URL(match[0]);
}
