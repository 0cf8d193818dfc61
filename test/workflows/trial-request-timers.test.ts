// The trial request workflow on the time-skipping server with the real activities over
// the test database (the email chain of the test run: its fake provider, then SMTP): the
// emailed setup token is valid at 6 d 23 h 59 min and not at 7 d, by the request path's
// check at the server's time and by the workflow's timer in the row; the reminder goes out
// 3 days before the trial's end and not a minute earlier; at the end the company becomes
// trial_expired (its keys and tokens then answer 403), not a minute earlier.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createTrialRequestActivities } from '../../activities/onboarding/trial-request';
import { connectDb, type Db } from '../../db/db';
import { insertTrialRequest, listAuditEvents } from '../../db/repositories/push-trial-requests';
import { isPushTrialExpired } from '../../db/repositories/push-users';
import { registerPushAccount } from '../../domain/auth/register-push-account';
import { setupTokenInfo } from '../../domain/onboarding/setup-tokens';
import { loadConfig } from '../../lib/config';
import { masterKey } from '../../lib/crypto/master-key';
import { createEmailChain } from '../../lib/email/chain';
import { logger } from '../../lib/logger';
import { setupTokenKey, setupTokenOf } from '../../lib/setup-tokens';
import {
  approveUpdate,
  SETUP_TOKEN_TTL_MS,
  TRIAL_REMINDER_BEFORE_MS,
  TRIAL_REQUEST_WORKFLOW_TYPE,
  trialRequestWorkflowId,
  trialStateQuery,
} from '../../workflows/onboarding/contract';
import { eventually } from '../support/eventually';
import { uniqueEmail } from '../support/push';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { trialForm } from '../support/trial-requests';

const TASK_QUEUE = 'trial-request-timers-test';
const MIN = 60_000;
const DAY = 86_400_000;
const config = loadConfig();
const tokenKey = setupTokenKey(masterKey(config));
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
const chain = createEmailChain({ config, logger });

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  env = await timeSkippingEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: createTrialRequestActivities({ db, chain, tokenKey, appUrl: config.appUrl }),
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await chain.close?.();
  await env?.teardown();
  await db?.close();
});

/** A submitted request (its row, as the API writes it), its workflow started and approved for `trialDays`. */
async function approvedTrial(trialDays: number) {
  const form = trialForm({ email: uniqueEmail('timers') }) as any;
  const { id: requestId } = (await insertTrialRequest(db, form))!;
  const operator = await registerPushAccount(db, { email: uniqueEmail('op'), name: 'Op', password: 'correct horse battery' });
  const handle = await env.client.workflow.start(TRIAL_REQUEST_WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: trialRequestWorkflowId(requestId),
    args: [{ requestId }],
  });
  const reply = await handle.executeUpdate(approveUpdate, { args: [{ planSlug: 'growth', trialDays, adminNotes: null, actorId: operator.user.id }] });
  const tokenId = await eventually(async () => (await handle.query(trialStateQuery)).openTokenId ?? undefined, { what: 'the first setup token' });
  const { rows } = await db.query(`SELECT created_at AS "createdAt", expires_at AS "expiresAt" FROM push_setup_tokens WHERE id = $1`, [tokenId]);
  return { requestId, handle, reply, token: setupTokenOf(tokenKey, tokenId), tokenId, ...rows[0] as { createdAt: Date; expiresAt: Date } };
}

const serverNow = async () => new Date(await env.currentTimeMs());
const sleepUntil = async (at: number) => env.sleep(at - (await env.currentTimeMs()));
const tokenExpiredInRow = async (tokenId: string) =>
  (await db.query(`SELECT expired_at IS NOT NULL AS expired FROM push_setup_tokens WHERE id = $1`, [tokenId])).rows[0].expired as boolean;

test('the setup token: valid at 6 d 23 h 59 min, invalid at 7 d (the request path and the timer agree)', async () => {
  const t = await approvedTrial(30);
  assert.equal(t.expiresAt.getTime() - t.createdAt.getTime(), SETUP_TOKEN_TTL_MS);

  await sleepUntil(t.expiresAt.getTime() - MIN);
  const before = await setupTokenInfo(db, t.token, await serverNow());
  assert.equal(before.isValid, true);
  assert.equal(await tokenExpiredInRow(t.tokenId), false, 'not marked a minute before');

  await sleepUntil(t.expiresAt.getTime());
  assert.equal((await setupTokenInfo(db, t.token, await serverNow())).isValid, false, 'the clock check at 7 days');
  await eventually(() => tokenExpiredInRow(t.tokenId), { what: 'the timer marks the token expired' });
  // and so for any clock: the row says expired
  assert.equal((await setupTokenInfo(db, t.token, t.createdAt)).isValid, false);
});

test('the trial: the reminder 3 days before its end, trial_expired at the end, neither a minute early', async () => {
  const t = await approvedTrial(12);
  const end = Date.parse(t.reply.trialEndsAt);
  const companyId = t.reply.companyId;
  const reminders = async () => (await listAuditEvents(db, t.requestId)).filter((e) => e.type === 'trial.reminder_sent').length;
  const status = async () => (await db.query(`SELECT status FROM push_companies WHERE id = $1`, [companyId])).rows[0].status as string;

  await sleepUntil(end - TRIAL_REMINDER_BEFORE_MS - MIN);
  assert.equal(await reminders(), 0);
  await sleepUntil(end - TRIAL_REMINDER_BEFORE_MS);
  await eventually(async () => (await reminders()) === 1, { what: 'the reminder at its instant' });

  await sleepUntil(end - MIN);
  assert.equal(await status(), 'trial');
  await sleepUntil(end);
  await eventually(async () => (await status()) === 'trial_expired', { what: 'the company expired at the end' });
  assert.equal(await isPushTrialExpired(db, companyId), true);
  assert.equal(await reminders(), 1, 'one reminder per end');
  // the first token is made just after the approval, both at the workflow's time
  assert.ok(Math.abs(end - t.createdAt.getTime() - 12 * DAY) < 1000, 'the trial counts from the approval');
});
