// Trial onboarding end to end over HTTP with the suite's onboarding worker, its SMTP
// catcher and its fake transactional provider (which refuses `+provider-down` recipients
// with a 503): approval provisions and emails a link (the fall-through to SMTP recorded),
// token info, link recovery voiding the emailed link, set-password signing in once, the
// 409s of decided requests, rejection, extension, the audit trail, and the raw token in
// no table and no workflow history.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { receivedMail, setupLinkIn } from '../support/mail';
import { assertPushError, bearer, startPushApi, type PushAccount } from '../support/push';
import { adminCall, submitTrial, superAdmin } from '../support/trial-requests';
import { listAuditEvents } from '../../db/repositories/push-trial-requests';
import { trialRequestWorkflowId } from '../../workflows/onboarding/contract';

let api: TestApi;
let op: PushAccount;
let call: ReturnType<typeof adminCall>;
beforeAll(async () => {
  api = await startPushApi();
  op = await superAdmin(api);
  call = adminCall(api, op.accessToken);
});
afterAll(async () => api?.stop());

const linkInMail = (raw: string) => setupLinkIn({ raw }).href;

/** The set-password link in a message's plain text. */
function linkIn(text: string): string {
  const m = /(https?:\/\/\S+\/setup-password\?token=[A-Za-z0-9_-]+)/.exec(text);
  assert.ok(m, `no setup link in the mail:\n${text}`);
  return m[1];
}
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

async function approved(email: string, trialDays = 14) {
  const sub = await submitTrial(api, { email });
  assert.equal(sub.status, 201, JSON.stringify(sub.body));
  const res = await call('POST', `/${sub.body.id}/approve`, { planSlug: 'growth', trialDays, adminNotes: 'welcome' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const emailed = (id: string) =>
  eventually(async () => {
    const view = (await call('GET', `/${id}`)).body;
    return view.setupEmail.state !== 'none' ? view : undefined;
  }, { timeoutMs: 30_000, what: 'the setup email recorded' });

it('approve: company, owner and membership; the provider refuses, SMTP takes the link (recorded); the link works once', async () => {
  const email = `robin+provider-down-${randomUUID().slice(0, 8)}@studio.example`;
  const view = await approved(email);
  assert.equal(view.status, 'Approved');
  assert.equal(view.companyStatus, 'trial');
  assert.equal(view.planSlug, 'growth');
  const days = (Date.parse(view.trialEndsAt) - Date.parse(view.decidedAt)) / 86_400_000;
  assert.ok(Math.abs(days - 14) < 0.01, `trial of ${days} days`);

  const sent = await emailed(view.id);
  assert.equal(sent.setupEmail.state, 'sent');
  assert.equal(sent.setupEmail.provider, 'smtp');
  assert.equal(sent.setupEmail.attempts, 1);
  assert.match(sent.setupEmail.lastError, /postmark: 503/);
  const mail = await receivedMail((m) => m.to.includes(email));
  const emailedToken = tokenOf(linkInMail(mail.raw));

  const info = await api.request('POST', '/api/v1/auth/setup-token', { body: { token: emailedToken } });
  assert.equal(info.status, 200);
  assert.deepEqual({ ...info.body, expiresAt: undefined }, { email, fullName: 'Robin Example', companyName: 'Pixel Forge', expiresAt: undefined, isValid: true });
  const ttl = Date.parse(info.body.expiresAt) - Date.now();
  assert.ok(ttl > 6.99 * 86_400_000 && ttl <= 7 * 86_400_000, `valid for ${ttl} ms`);
  assertPushError(await api.request('POST', '/api/v1/auth/login', { body: { email, password: 'anything at all' } }), 401, 'UNAUTHORIZED');

  // decided: a second approve and a reject are 409s
  assertPushError(await call('POST', `/${view.id}/approve`, { planSlug: 'growth', trialDays: 3 }), 409, 'CONFLICT');
  assertPushError(await call('POST', `/${view.id}/reject`, { adminNotes: 'too late' }), 409, 'CONFLICT');

  // link recovery: a fresh link, once; the emailed one is void
  const link = await call('POST', `/${view.id}/setup-link`);
  assert.equal(link.status, 200, JSON.stringify(link.body));
  assert.equal(link.headers.get('cache-control'), 'no-store');
  const linkToken = tokenOf(link.body.setupUrl);
  assert.notEqual(linkToken, emailedToken);
  assert.equal((await api.request('POST', '/api/v1/auth/setup-token', { body: { token: emailedToken } })).body.isValid, false);
  assert.ok((await call('GET', `/${view.id}`)).body.setupEmail.lastLinkGeneratedAt);

  // set the password: signed in; the token is spent
  const set = await api.request('POST', '/api/v1/auth/set-password', { body: { token: linkToken, password: 'a brand new password' } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.user.email, email);
  const me = await api.request('GET', '/api/v1/auth/me', { headers: bearer(set.body.accessToken) });
  assert.equal(me.status, 200);
  assert.equal((await api.request('POST', '/api/v1/auth/login', { body: { email, password: 'a brand new password' } })).status, 200);
  assertPushError(await api.request('POST', '/api/v1/auth/set-password', { body: { token: linkToken, password: 'another password!' } }), 400, 'VALIDATION_FAILED');
  assert.equal((await api.request('POST', '/api/v1/auth/setup-token', { body: { token: linkToken } })).body.isValid, false);
  assertPushError(await call('POST', `/${view.id}/resend-setup`), 409, 'CONFLICT');
  assert.ok((await call('GET', `/${view.id}`)).body.passwordSetAt);

  // the audit trail, with its actors
  const audit = await listAuditEvents(api.deps.db, view.id);
  const types = audit.map((e) => e.type);
  for (const t of ['trial_request.submitted', 'trial_request.approved', 'trial_request.setup_email_sent', 'trial_request.setup_link_generated', 'trial_request.password_set']) {
    assert.ok(types.includes(t), `${t} in ${types.join(', ')}`);
  }
  assert.equal(audit.find((e) => e.type === 'trial_request.approved')!.actorId, op.userId);
  assert.equal(audit.find((e) => e.type === 'trial_request.setup_link_generated')!.actorId, op.userId);

  // the raw tokens are in no table and in no workflow history
  for (const token of [emailedToken, linkToken]) {
    for (const table of ['push_setup_tokens', 'push_trial_requests', 'push_audit_events', 'workflow_starts', 'idempotency_keys']) {
      const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE '%' || $1 || '%'`, [token]);
      assert.equal(rows[0].n, 0, `${table} holds a raw token`);
    }
  }
  const history = await api.deps.temporal.workflow.getHandle(trialRequestWorkflowId(view.id)).fetchHistory();
  const text = JSON.stringify(history);
  assert.ok(!text.includes(emailedToken) && !text.includes(linkToken), 'a raw token in the workflow history');
});

it('a provider that takes the email: recorded with its message id; resend voids the first link and emails a new one', async () => {
  const email = `ana-${randomUUID().slice(0, 8)}@studio.example`;
  const view = await approved(email);
  const sent = await emailed(view.id);
  assert.equal(sent.setupEmail.provider, 'postmark');
  assert.match(sent.setupEmail.providerMessageId, /^[0-9a-f-]{36}$/);
  assert.equal(sent.setupEmail.lastError, null);
  const dir = process.env.POSTMARK_SINK_DIR!;
  const message = JSON.parse(readFileSync(join(dir, `${sent.setupEmail.providerMessageId}.json`), 'utf8'));
  assert.equal(message.To, email);
  const first = tokenOf(linkIn(message.TextBody));

  const resend = await call('POST', `/${view.id}/resend-setup`);
  assert.equal(resend.status, 202, JSON.stringify(resend.body));
  const again = await eventually(async () => {
    const v = (await call('GET', `/${view.id}`)).body;
    return v.setupEmail.attempts >= 2 ? v : undefined;
  }, { timeoutMs: 30_000, what: 'the second setup email' });
  const second = JSON.parse(readFileSync(join(dir, `${again.setupEmail.providerMessageId}.json`), 'utf8'));
  const secondToken = tokenOf(linkIn(second.TextBody));
  assert.notEqual(secondToken, first);
  assert.equal((await api.request('POST', '/api/v1/auth/setup-token', { body: { token: first } })).body.isValid, false);
  assert.equal((await api.request('POST', '/api/v1/auth/setup-token', { body: { token: secondToken } })).body.isValid, true);
  assert.ok(readdirSync(dir).length >= 2);
});

it('reject: needs a reason; Rejected takes no approval; the same email may ask again', async () => {
  const email = `rex-${randomUUID().slice(0, 8)}@studio.example`;
  const sub = await submitTrial(api, { email });
  assertPushError(await call('POST', `/${sub.body.id}/reject`, {}), 400, 'VALIDATION_FAILED');
  assertPushError(await call('POST', `/${sub.body.id}/setup-link`), 409, 'CONFLICT');
  const rejected = await call('POST', `/${sub.body.id}/reject`, { adminNotes: 'Not a game studio' });
  assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
  assert.equal(rejected.body.status, 'Rejected');
  assert.equal(rejected.body.adminNotes, 'Not a game studio');
  assertPushError(await call('POST', `/${sub.body.id}/approve`, { planSlug: 'growth', trialDays: 14 }), 409, 'CONFLICT');
  const again = await submitTrial(api, { email });
  assert.equal(again.status, 201);
  assert.notEqual(again.body.id, sub.body.id);
});

it('extend: the trial ends `days` later; an owner email that has an account cannot be approved', async () => {
  const view = await approved(`eve-${randomUUID().slice(0, 8)}@studio.example`, 10);
  const extended = await call('POST', `/${view.id}/extend`, { days: 7 });
  assert.equal(extended.status, 200, JSON.stringify(extended.body));
  assert.equal(Date.parse(extended.body.trialEndsAt) - Date.parse(view.trialEndsAt), 7 * 86_400_000);

  const taken = await submitTrial(api, { email: op.email });
  const refused = await call('POST', `/${taken.body.id}/approve`, { planSlug: 'growth', trialDays: 14 });
  assertPushError(refused, 409, 'CONFLICT');
  assert.equal((await call('GET', `/${taken.body.id}`)).body.status, 'Submitted', 'a refused approval leaves the request Submitted');
});
