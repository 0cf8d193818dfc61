// `npm run test:faults` (also part of `npm test`): the onboarding worker's fault run, one
// fault run at a time (test/support/fault-run-lock.ts): never beside the push or the
// ticketing fault run on the two cores.
//
// Two onboarding workers share the approvals of 30 trial requests through the task queue;
// one of them is killed with SIGKILL while setup emails are in flight, the other finishes:
// a crash between the workflow's steps (provision, issue the token, email it) neither
// loses nor repeats a step, and only an email whose activity was running in the killed
// process is sent again, with the same link.
//
// Isolation as in the push crash tests: the requests are submitted the way
// POST /trial-requests does it (domain/onboarding/submit-trial-request.ts, the outbox),
// with the API's workflow id but on a task queue of this test, which only a start
// dispatcher of this test and the two worker processes it starts poll. Each worker emails
// through a fake Postmark of its own in this process that answers 300 ms late, so the test
// knows which emails the killed worker had at the provider, unanswered, at the kill.
//
// The assertion on repeats, and why it cannot pass vacuously: the kill comes when the
// killed worker's provider holds at least one unanswered email (`cutOff`, at least one by
// construction). Right after the kill, Temporal's description of each workflow names the
// sendSetupEmail attempts that were running in the killed process (`inFlight`, started by
// its identity). Then: every cut-off owner got a second email (the retry: a crash must not
// lose it), every owner with more than one email is in `inFlight` (a repeat only where the
// kill interrupted that very email, never for a finished one), nobody got more than two,
// and every email of an owner carries the same link, whose token is the owner's one open
// token (a retry re-derives the token from the id in the history; it never issues another).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { updateWorkflow } from '../../api/kit/workflow-update';
import { makePushSuperAdmin } from '../../db/repositories/push-demo';
import { registerPushAccount } from '../../domain/auth/register-push-account';
import { submitTrialRequest } from '../../domain/onboarding/submit-trial-request';
import { createLogger } from '../../lib/logger';
import { hashSetupToken } from '../../lib/setup-tokens';
import { createWorkflowStartDispatcher } from '../../workers/workflow-start-dispatcher';
import { approveUpdate, trialRequestWorkflowId, trialRequestWorkflowStart, type ApproveReply } from '../../workflows/onboarding/contract';
import { eventually } from '../support/eventually';
import { startFakePostmark, type PostmarkRequest } from '../support/fake-postmark';
import { usePushCrashStack } from '../support/push-crash-stack';
import { startQueueWorker } from '../support/worker-process';
import { oneFaultRunAtATime } from '../support/fault-run-lock';

const REQUESTS = 30;
const PROVIDER_DELAY_MS = 300;
/** Temporal's PENDING_ACTIVITY_STATE_STARTED */
const STARTED = 2;

oneFaultRunAtATime('onboarding'); // first: its services start once no other fault run holds the cores

const stack = usePushCrashStack('trial-crash');

const tokenIn = (text: string) => {
  const m = /\/setup-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  assert.ok(m, `no setup link in:\n${text}`);
  return m[1];
};

describe('two onboarding workers, one killed while setup emails are in flight', () => {
  it('every request approved once, one company/owner/membership/open token each, repeats only of interrupted emails, with the same link', async () => {
    const { api, client, workers } = stack;
    const db = api.deps.db;
    const run = `${process.pid}-${Date.now().toString(36)}`;
    const queue = `trial-crash-${run}`;
    const serverToken = randomUUID();
    const [fakeA, fakeB] = await Promise.all([0, 1].map(() => startFakePostmark({ serverToken, delayMs: PROVIDER_DELAY_MS })));
    const envOf = (url: string) => ({ POSTMARK_API_URL: url, POSTMARK_SERVER_TOKEN: serverToken });
    const [a, b] = await Promise.all([startQueueWorker('onboarding', queue, { env: envOf(fakeA.url) }), startQueueWorker('onboarding', queue, { env: envOf(fakeB.url) })]);
    workers.push(a, b);

    const operator = await registerPushAccount(db, { email: `operator-${run}@crash.example`, name: 'Operator', password: 'correct horse battery' });
    await makePushSuperAdmin(db, operator.user.id);
    const ids: string[] = [];
    for (let n = 0; n < REQUESTS; n++) {
      const { request } = await submitTrialRequest(
        db,
        {
          email: `owner-${n}-${run}@crash.example`, fullName: `Owner ${n}`, companyName: `Crash ${n}`, website: 'https://crash.example',
          useCase: 'crash test', expectedMonthlyNotifications: 1000, requestedPlanSlug: 'growth',
        },
        (id) => ({ ...trialRequestWorkflowStart(api.deps.config.temporalSearchAttributes)(id), taskQueue: queue }),
      );
      ids.push(request.id);
    }
    const dispatcher = createWorkflowStartDispatcher({ db, client, logger: createLogger(), taskQueue: queue });
    await dispatcher.start();

    const emails = (fake: typeof fakeA) => fake.requests.filter((r) => r.path === '/email' && r.headers['x-postmark-server-token'] === serverToken);
    const all = () => [...emails(fakeA), ...emails(fakeB)];
    const answered = (fake: typeof fakeA) => emails(fake).filter((r) => r.messageId).length;
    const output = () => `A:\n${a.output()}\nB:\n${b.output()}`;
    try {
      // one approval after the other (as an operator clicks), so the emails trickle out
      const approvals = (async () => {
        const replies: ApproveReply[] = [];
        for (const id of ids) {
          replies.push(await updateWorkflow(api.deps, {
            workflowId: trialRequestWorkflowId(id),
            update: approveUpdate,
            args: [{ planSlug: 'growth', trialDays: 14, adminNotes: null, actorId: operator.user.id }],
            // a provisioning in flight in the killed worker is retried after its 30 s time-out
            deadlineMs: 120_000,
            onEnded: async () => {
              throw new Error(`the workflow of trial request ${id} ended before its approval`);
            },
          }));
        }
        return replies;
      })();
      approvals.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile

      let cutOff: PostmarkRequest[] = [];
      let atKill = 0;
      await eventually(() => {
        if (answered(fakeA) < 3 || fakeA.waiting().length === 0) return false;
        // in one synchronous step: what A's provider holds unanswered, then the kill
        cutOff = fakeA.waiting();
        atKill = all().length;
        a.kill9();
        return true;
      }, { timeoutMs: 90_000, everyMs: 1, what: () => `A's provider: ${answered(fakeA)} answered, ${fakeA.waiting().length} waiting; B's: ${answered(fakeB)}\n${output()}` });
      assert.equal((await a.exited).signal, 'SIGKILL');
      assert.ok(cutOff.length >= 1);
      assert.ok(atKill < REQUESTS, `the approvals were still under way at the kill (${atKill} emails)`);

      // the attempts that were running in the killed process (they stay STARTED, under its
      // identity, until their start-to-close time-out)
      const identityA = `${a.pid}@${hostname()}`;
      const inFlight = new Set<string>();
      const runningInA: string[] = [];
      for (const id of ids) {
        const d = await client.workflow.getHandle(trialRequestWorkflowId(id)).describe().catch(() => undefined);
        for (const p of d?.raw.pendingActivities ?? []) {
          if (p.state !== STARTED || p.lastWorkerIdentity !== identityA) continue;
          runningInA.push(p.activityType?.name ?? '?');
          if (p.activityType?.name === 'sendSetupEmail') inFlight.add(id);
        }
      }

      const replies = await approvals;
      assert.equal(replies.length, REQUESTS);
      assert.ok(replies.every((r) => r.status === 'Approved'));

      // the other worker finishes: every workflow idle (no activity pending) with its email recorded
      await eventually(async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM push_trial_requests WHERE id = ANY($1) AND setup_email_state <> 'none'`, [ids]);
        if (rows[0].n < REQUESTS) return false;
        for (const id of ids) {
          const d = await client.workflow.getHandle(trialRequestWorkflowId(id)).describe();
          if ((d.raw.pendingActivities ?? []).length > 0) return false;
        }
        return fakeB.waiting().length === 0;
      }, { timeoutMs: 180_000, everyMs: 1000, what: () => `all setup emails recorded\n${output()}` });

      const { rows: requests } = await db.query(
        `SELECT id, email, status, company_id AS "companyId", owner_id AS "ownerId", setup_email_state AS state,
                setup_email_attempts AS attempts, setup_email_provider AS provider, setup_email_message_id AS "messageId"
           FROM push_trial_requests WHERE id = ANY($1)`,
        [ids],
      );
      assert.equal(requests.length, REQUESTS);
      const byEmail = new Map<string, PostmarkRequest[]>();
      for (const r of all()) byEmail.set(String(r.body.To), [...(byEmail.get(String(r.body.To)) ?? []), r]);
      const cutOffTo = new Set(cutOff.map((r) => String(r.body.To)));
      let repeats = 0;
      for (const r of requests) {
        const at = `${r.email}`;
        assert.equal(r.status, 'Approved', at);
        const { rows: [counts] } = await db.query(
          `SELECT (SELECT count(*)::int FROM push_users WHERE lower(email) = lower($1)) AS users,
                  (SELECT count(*)::int FROM push_memberships m JOIN push_users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)) AS memberships,
                  (SELECT count(DISTINCT m.company_id)::int FROM push_memberships m JOIN push_users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)) AS companies,
                  (SELECT count(*)::int FROM push_memberships WHERE company_id = $2) AS members,
                  (SELECT count(*)::int FROM push_companies WHERE id = $2 AND status = 'trial') AS company,
                  (SELECT count(*)::int FROM push_audit_events WHERE trial_request_id = $3 AND type = 'trial_request.approved') AS approved`,
          [r.email, r.companyId, r.id],
        );
        assert.deepEqual(counts, { users: 1, memberships: 1, companies: 1, members: 1, company: 1, approved: 1 }, at);
        const { rows: tokens } = await db.query(
          `SELECT token_hash AS hash, (used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL) AS open FROM push_setup_tokens WHERE user_id = $1`,
          [r.ownerId],
        );
        assert.equal(tokens.length, 1, `${at}: ${tokens.length} setup tokens issued`);
        assert.ok(tokens[0].open, `${at}: the setup token is not open`);

        const got = byEmail.get(r.email) ?? [];
        assert.ok(got.length >= 1, `${at}: no setup email`);
        assert.ok(got.length <= 2, `${at}: ${got.length} setup emails`);
        for (const m of got) assert.equal(hashSetupToken(tokenIn(String(m.body.TextBody))), tokens[0].hash, `${at}: an email with another link`);
        if (got.length > 1) {
          repeats++;
          assert.ok(inFlight.has(r.id), `${at}: emailed twice though its email was not in flight in the killed worker`);
        }
        if (cutOffTo.has(r.email)) assert.equal(got.length, 2, `${at}: its email was cut off at the kill and never sent again`);
        assert.equal(r.state, 'sent', at);
        assert.equal(r.provider, 'postmark', at);
        assert.ok(r.attempts >= 1 && r.attempts <= got.length, `${at}: ${r.attempts} attempts recorded, ${got.length} emails`);
        assert.ok(got.some((m) => m.messageId === r.messageId), `${at}: the recorded message id is none the provider answered`);
      }
      assert.ok(repeats >= cutOff.length && repeats <= inFlight.size, `${repeats} repeats, ${cutOff.length} cut off, ${inFlight.size} in flight`);
      console.log(
        `trial approvals, two workers, one kill -9: ${atKill} emails before the kill, ${cutOff.length} cut off at the provider, ` +
          `${inFlight.size} setup emails in flight in the killed worker (all its running activities: ${runningInA.join(', ') || 'none'}), ` +
          `${repeats} owners emailed twice, 0 missed`,
      );
    } finally {
      await dispatcher.stop();
      await Promise.all(ids.map((id) => client.workflow.getHandle(trialRequestWorkflowId(id)).terminate('trial crash test cleanup').catch(() => undefined)));
      await Promise.all([fakeA.stop(), fakeB.stop()]);
    }
  }, 300_000);
});
