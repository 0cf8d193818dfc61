// The trial request workflow on the time-skipping server with in-memory activities that
// record what they were asked and when (the real ones over the database run in the
// end-to-end test): approval provisions, issues a token and emails it; the validators
// refuse a second decision and setup actions before approval; a refused provisioning
// leaves the request Submitted; a rejection ends the workflow; the token's 7 days, the
// reminder 3 days before the trial's end and the end itself fire at their instants and not
// a minute before; a resend and an extension move the timers; after the end the workflow
// stays KEEP_AFTER_END_MS for late extensions, then ends. (No test terminates its
// workflow: the time-skipping server would keep the time of an activity in flight locked.)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  ALREADY_DECIDED,
  approveUpdate,
  extendUpdate,
  NOT_APPROVED,
  rejectUpdate,
  resendSetupUpdate,
  SETUP_TOKEN_TTL_MS,
  setupLinkUpdate,
  TRIAL_REMINDER_BEFORE_MS,
  trialRequestWorkflowId,
  trialStateQuery,
  type TrialRequestActivities,
} from '../../workflows/onboarding/contract';
import { KEEP_AFTER_END_MS } from '../../domain/onboarding/trial-timers.rules';
import { trialRequestWorkflow } from '../../workflows/onboarding/trial-request.workflow';
import { eventually } from '../support/eventually';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { fakeTrialActivities, type TrialCall, type TrialFake } from '../support/trial-request-fakes';

const TASK_QUEUE = 'trial-request-test';
const DAY = 86_400_000;
const MIN = 60_000;
const actorId = randomUUID();

const { activities, track } = fakeTrialActivities();
type Call = TrialCall;
type Fake = TrialFake;

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  env = await timeSkippingEnv();
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue: TASK_QUEUE, workflowBundle: await workflowBundle(), activities });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

async function start(o: Partial<Fake> = {}) {
  const requestId = randomUUID();
  const f = track(requestId, o);
  const handle = await env.client.workflow.start(trialRequestWorkflow, { args: [{ requestId, searchAttributes: false }], workflowId: trialRequestWorkflowId(requestId), taskQueue: TASK_QUEUE });
  const calls = (name: Call['name']) => f.calls.filter((c) => c.name === name);
  return { requestId, handle, f, calls };
}
type Started = Awaited<ReturnType<typeof start>>;

const approve = (handle: WorkflowHandle, trialDays: number) => handle.executeUpdate(approveUpdate, { args: [{ planSlug: 'starter', trialDays, adminNotes: null, actorId }] });

/** Approved, with its first token issued and emailed: the token's creation time and the trial's end. */
async function approved(r: Started, trialDays: number) {
  const reply = await approve(r.handle, trialDays);
  const [token] = await eventually(() => r.calls('sendSetupEmail').length === 1 && r.calls('issueSetupToken'), { what: 'the first token emailed' });
  return { reply, tokenId: token.input.tokenId as string, tokenAt: Date.parse(token.input.createdAt), trialEndsAt: Date.parse(reply.trialEndsAt) };
}

/** The time-skipping server's time moved on to `at`. */
async function sleepUntil(at: number) {
  const now = await env.currentTimeMs();
  assert.ok(at >= now, `${at - now} ms in the past`);
  await env.sleep(at - now);
}

async function refusedWith(p: Promise<unknown>, type: string) {
  const err = await p.then(() => assert.fail('not refused'), (e: unknown) => e);
  assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
  assert.equal((err.cause as ApplicationFailure).type, type);
}

describe('decisions', () => {
  test('approve provisions the trial, then a setup token is issued and emailed', async () => {
    const r = await start();
    const before = await env.currentTimeMs();
    const { reply, tokenId, tokenAt, trialEndsAt } = await approved(r, 14);
    assert.equal(reply.status, 'Approved');
    const [p] = r.calls('provisionTrial');
    assert.deepEqual({ ...p.input, trialEndsAt: undefined }, { requestId: r.requestId, planSlug: 'starter', trialDays: 14, adminNotes: null, actorId, trialEndsAt: undefined });
    // trialDays after the approval, on the workflow clock
    assert.ok(trialEndsAt - 14 * DAY >= before && trialEndsAt - 14 * DAY <= p.at, `${trialEndsAt - 14 * DAY - before} ms after the approval was asked`);
    const [issued] = r.calls('issueSetupToken');
    assert.equal(issued.input.purpose, 'email');
    assert.equal(issued.input.actorId, null);
    assert.equal(Date.parse(issued.input.expiresAt), tokenAt + SETUP_TOKEN_TTL_MS);
    assert.deepEqual(r.calls('sendSetupEmail')[0].input, { requestId: r.requestId, tokenId });
    assert.deepEqual(await r.handle.query(trialStateQuery), { status: 'Approved', trialEndsAt: reply.trialEndsAt, openTokenId: tokenId });
  });

  test('a second approve (concurrent or later) and a reject after approval are refused: ALREADY_DECIDED', async () => {
    let open!: () => void;
    const r = await start({ gate: new Promise<void>((resolve) => (open = resolve)) });
    const first = approve(r.handle, 14);
    try {
      await eventually(() => r.calls('provisionTrial').length === 1, { what: 'provisioning started' });
      await refusedWith(approve(r.handle, 14), ALREADY_DECIDED);
      await refusedWith(r.handle.executeUpdate(rejectUpdate, { args: [{ adminNotes: 'no', actorId }] }), ALREADY_DECIDED);
    } finally {
      open(); // never an activity left waiting: it would hold the server's time
    }
    assert.equal((await first).status, 'Approved');
    await refusedWith(approve(r.handle, 30), ALREADY_DECIDED);
    await refusedWith(r.handle.executeUpdate(rejectUpdate, { args: [{ adminNotes: 'no', actorId }] }), ALREADY_DECIDED);
    assert.equal(r.calls('provisionTrial').length, 1);
    assert.equal(r.calls('rejectTrialRequest').length, 0);
  });

  test('a refused provisioning (email_taken) fails the approve with that failure and leaves the request Submitted', async () => {
    const r = await start({ refuseProvision: 'email_taken' });
    await refusedWith(approve(r.handle, 14), 'email_taken');
    assert.equal((await r.handle.query(trialStateQuery)).status, 'Submitted');
    assert.equal(r.calls('issueSetupToken').length, 0);
    await approve(r.handle, 14); // the operator fixed it: approving works again
    assert.equal((await r.handle.query(trialStateQuery)).status, 'Approved');
  });

  test('setup actions before approval are refused: NOT_APPROVED; a reject ends the workflow', async () => {
    const r = await start();
    await refusedWith(r.handle.executeUpdate(resendSetupUpdate, { args: [{ actorId }] }), NOT_APPROVED);
    await refusedWith(r.handle.executeUpdate(setupLinkUpdate, { args: [{ actorId }] }), NOT_APPROVED);
    await refusedWith(r.handle.executeUpdate(extendUpdate, { args: [{ days: 5, actorId }] }), NOT_APPROVED);
    assert.deepEqual(await r.handle.executeUpdate(rejectUpdate, { args: [{ adminNotes: 'spam', actorId }] }), { status: 'Rejected' });
    assert.deepEqual(await r.handle.result(), { status: 'Rejected', trialEndsAt: null });
    assert.deepEqual(r.calls('rejectTrialRequest')[0].input, { requestId: r.requestId, adminNotes: 'spam', actorId });
    assert.equal(r.calls('provisionTrial').length, 0);
  });
});

describe('the setup token', () => {
  test('expires at exactly 7 days: nothing at 6 d 23 h 59 min, expireSetupToken at 7 d', async () => {
    const r = await start();
    const { tokenId, tokenAt } = await approved(r, 30);
    await sleepUntil(tokenAt + 7 * DAY - MIN);
    assert.deepEqual(r.calls('expireSetupToken'), []);
    await env.sleep(MIN);
    const [expired] = await eventually(() => r.calls('expireSetupToken').length > 0 && r.calls('expireSetupToken'), { what: 'the token expired' });
    assert.deepEqual(expired.input, { tokenId });
    assert.ok(expired.at >= tokenAt + SETUP_TOKEN_TTL_MS && expired.at < tokenAt + SETUP_TOKEN_TTL_MS + MIN);
    assert.equal((await r.handle.query(trialStateQuery)).openTokenId, null);
  });

  test('a resend makes a new token with its own 7 days, emailed after the reply; the old one\'s timer no longer fires', async () => {
    const r = await start();
    const first = await approved(r, 30);
    await sleepUntil(first.tokenAt + 3 * DAY);
    const resent = await r.handle.executeUpdate(resendSetupUpdate, { args: [{ actorId }] });
    assert.notEqual(resent.tokenId, first.tokenId);
    await eventually(() => r.calls('sendSetupEmail').some((c) => c.input.tokenId === resent.tokenId), { what: 'the new token emailed' });
    const issued = r.calls('issueSetupToken')[1];
    assert.deepEqual([issued.input.purpose, issued.input.actorId], ['email', actorId]);
    const resentAt = Date.parse(issued.input.createdAt);
    assert.equal(Date.parse(resent.expiresAt), resentAt + SETUP_TOKEN_TTL_MS);
    await sleepUntil(resentAt + SETUP_TOKEN_TTL_MS - MIN); // past the first token's 7 days
    assert.deepEqual(r.calls('expireSetupToken'), []);
    await env.sleep(MIN);
    await eventually(() => r.calls('expireSetupToken').length === 1, { what: 'the new token expired' });
    assert.deepEqual(r.calls('expireSetupToken')[0].input, { tokenId: resent.tokenId });
  });

  test('setupLink issues a link token (no email) and answers its id', async () => {
    const r = await start();
    await approved(r, 30);
    const link = await r.handle.executeUpdate(setupLinkUpdate, { args: [{ actorId }] });
    const issued = r.calls('issueSetupToken')[1];
    assert.deepEqual([issued.input.tokenId, issued.input.purpose, issued.input.actorId], [link.tokenId, 'link', actorId]);
    assert.equal((await r.handle.query(trialStateQuery)).openTokenId, link.tokenId);
    await env.sleep(MIN);
    assert.equal(r.calls('sendSetupEmail').length, 1, 'only the first token was emailed');
  });
});

describe('the trial', () => {
  test('the reminder at trialEnd − 3 d exactly, the expiry at trialEnd exactly', async () => {
    const r = await start();
    const { reply, trialEndsAt } = await approved(r, 12);
    const reminderAt = trialEndsAt - TRIAL_REMINDER_BEFORE_MS;
    await sleepUntil(reminderAt - MIN);
    assert.deepEqual(r.calls('sendTrialReminder'), []);
    await env.sleep(MIN);
    const [reminder] = await eventually(() => r.calls('sendTrialReminder').length > 0 && r.calls('sendTrialReminder'), { what: 'the reminder' });
    assert.deepEqual(reminder.input, { requestId: r.requestId, trialEndsAt: reply.trialEndsAt });
    assert.ok(reminder.at >= reminderAt && reminder.at < reminderAt + MIN);
    await sleepUntil(trialEndsAt - MIN);
    assert.deepEqual(r.calls('expireTrial'), []);
    await env.sleep(MIN);
    const [expiry] = await eventually(() => r.calls('expireTrial').length > 0 && r.calls('expireTrial'), { what: 'the expiry' });
    assert.ok(Date.parse(expiry.input.at) >= trialEndsAt && Date.parse(expiry.input.at) < trialEndsAt + MIN);
    assert.equal(r.f.companyStatus, 'trial_expired');
    assert.equal(r.calls('sendTrialReminder').length, 1);
  });

  test('an extension before the end moves the reminder and the expiry; the old end passes without either', async () => {
    const r = await start();
    const { trialEndsAt } = await approved(r, 10);
    await sleepUntil(trialEndsAt - 8 * DAY);
    const extended = await r.handle.executeUpdate(extendUpdate, { args: [{ days: 5, actorId }] });
    const newEnd = Date.parse(extended.trialEndsAt);
    assert.equal(newEnd, trialEndsAt + 5 * DAY);
    await sleepUntil(trialEndsAt + MIN);
    assert.deepEqual([r.calls('sendTrialReminder'), r.calls('expireTrial')], [[], []]);
    await sleepUntil(newEnd - TRIAL_REMINDER_BEFORE_MS - MIN);
    assert.deepEqual(r.calls('sendTrialReminder'), []);
    await env.sleep(MIN);
    await eventually(() => r.calls('sendTrialReminder').length === 1, { what: 'the reminder of the new end' });
    assert.equal(r.calls('sendTrialReminder')[0].input.trialEndsAt, extended.trialEndsAt);
    await sleepUntil(newEnd - MIN);
    assert.deepEqual(r.calls('expireTrial'), []);
    await env.sleep(MIN);
    await eventually(() => r.f.companyStatus === 'trial_expired', { what: 'the trial expired at its new end' });
  });

  test('a trial of 3 days or less gets no reminder; after its end it still takes an extension, and ends KEEP_AFTER_END_MS after the last end', async () => {
    const r = await start();
    const { trialEndsAt } = await approved(r, 2);
    await sleepUntil(trialEndsAt);
    await eventually(() => r.f.companyStatus === 'trial_expired', { what: 'the trial expired' });
    assert.deepEqual(r.calls('sendTrialReminder'), []);
    const extended = await r.handle.executeUpdate(extendUpdate, { args: [{ days: 1, actorId }] });
    const newEnd = Date.parse(extended.trialEndsAt);
    assert.ok(newEnd > trialEndsAt + DAY - MIN, 'one day from the extension');
    await sleepUntil(newEnd);
    await eventually(() => r.calls('expireTrial').length === 2 && r.f.companyStatus === 'trial_expired', { what: 'the extension expired' });
    await sleepUntil(newEnd + KEEP_AFTER_END_MS - MIN);
    assert.equal((await r.handle.describe()).status.name, 'RUNNING');
    await env.sleep(2 * MIN);
    assert.deepEqual(await r.handle.result(), { status: 'Approved', trialEndsAt: extended.trialEndsAt });
    assert.deepEqual(r.calls('sendTrialReminder'), []);
  });
});
