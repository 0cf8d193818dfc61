import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler } from '@temporalio/workflow';
import { upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import { afterExpiry, afterExtension, nextDue, tokenExpiryAfter, trialEndAfter } from '../../domain/onboarding/trial-timers.rules';
import { Mutex } from '../mutex';
import { refusal } from '../refusal';
import { ALREADY_DECIDED, approveUpdate, extendUpdate, NOT_APPROVED, rejectUpdate, resendSetupUpdate, setupLinkUpdate, trialStateQuery } from './contract';
import type { TokenReply, TrialRequestActivities, TrialRequestInput, TrialRequestResult } from './contract';
import { HISTORY_LIMIT, initialState, refused, resumeOf, activityRefusal } from './trial-request.logic';

// Database steps: idempotent (a repeat answers what the first did), retried until the
// database answers; a business refusal is non-retryable and fails at once.
const db = proxyActivities<TrialRequestActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// Emails go through the chain (each provider up to EMAIL_TIMEOUT_MS, then the log line,
// which always takes it): a failure here is the database's. Bounded, so a long outage
// never holds the timers; the request's email bookkeeping shows what went out.
const mail = proxyActivities<TrialRequestActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds', // the activity beats every second: a dead worker's email is retried soon
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `trial-request/<id>` (docs/trial-onboarding.md, "The workflow"). Its state table
 * (docs/workflows.md, "The trial request workflow"; the times are
 * domain/onboarding/trial-timers.rules.ts):
 *
 * | state                 | accepts                               | timers                                          |
 * |-----------------------|---------------------------------------|-------------------------------------------------|
 * | Submitted             | approve, reject                       | —                                               |
 * | Rejected → run ends   | nothing: trial_request_decided         | —                                               |
 * | Approved (trial runs) | resendSetup, setupLink, extend        | the open token's 7 days, the reminder 3 days before the end, the end |
 * | Approved (trial over) | the same, for KEEP_AFTER_END_MS       | the open token's 7 days, then the run ends        |
 */
export async function trialRequestWorkflow(input: TrialRequestInput): Promise<TrialRequestResult> {
  const { requestId } = input;
  const s = initialState(input.resume);
  // one token at a time, so the newest one is the state's openToken
  const oneTokenAtATime = new Mutex();
  const show = () => void (input.searchAttributes && upsertSearchAttributes({ TrialStatus: [s.status] }));
  if (input.resume) show(); // continue-as-new is not asked to carry them over
  /** A main-loop step that may fail for good without stopping the timers. */
  const attempt = (what: string, step: () => Promise<unknown>) =>
    step().catch((err) => log.warn(`trial request ${what} failed`, { requestId, error: String(err) }));

  function issue(purpose: 'email' | 'link', actorId: string | null): Promise<TokenReply> {
    return oneTokenAtATime.runExclusive(async () => {
      const now = Date.now();
      const tokenId = uuid4();
      const reply = await db.issueSetupToken({ requestId, tokenId, purpose, createdAt: iso(now), expiresAt: iso(tokenExpiryAfter(now)), actorId });
      s.openToken = { tokenId, expiresAt: Date.parse(reply.expiresAt) };
      s.changes++;
      return reply;
    });
  }

  // ── what each state accepts ──
  setHandler(trialStateQuery, () => ({ status: s.status, trialEndsAt: s.trialEndsAt === null ? null : iso(s.trialEndsAt), openTokenId: s.openToken?.tokenId ?? null }));
  const submitted = {
    validator: (..._: unknown[]) => {
      if (s.status !== 'Submitted') throw refusal('conflict', ALREADY_DECIDED, `The trial request is ${s.status} already`);
    },
  };
  setHandler(approveUpdate, async (args) => {
    s.status = 'Approved'; // at once: another approve or a reject is refused while this one provisions
    const now = Date.now();
    try {
      const reply = await db.provisionTrial({ requestId, ...args, trialEndsAt: iso(trialEndAfter(now, args.trialDays)) });
      Object.assign(s, { trialEndsAt: Date.parse(reply.trialEndsAt), endSetAt: now, welcome: true });
      show();
      s.changes++;
      return reply;
    } catch (err) {
      s.status = 'Submitted';
      throw activityRefusal(err);
    }
  }, submitted);
  setHandler(rejectUpdate, async (args) => {
    s.status = 'Rejected';
    try {
      await db.rejectTrialRequest({ requestId, ...args });
    } catch (err) {
      s.status = 'Submitted';
      throw activityRefusal(err);
    }
    [s.rejected, s.changes] = [true, s.changes + 1];
    show();
    return { status: 'Rejected' as const };
  }, submitted);
  const approved = {
    validator: (..._: unknown[]) => {
      if (s.status !== 'Approved' || s.trialEndsAt === null) throw refusal('conflict', NOT_APPROVED, `The trial request is not approved (${s.status})`);
    },
  };
  setHandler(resendSetupUpdate, async ({ actorId }) => {
    const token = await refused(() => issue('email', actorId));
    s.emails.push(token.tokenId); // the main loop emails it, after this reply
    s.changes++;
    return token;
  }, approved);
  setHandler(setupLinkUpdate, ({ actorId }) => refused(() => issue('link', actorId)), approved);
  setHandler(extendUpdate, async ({ days, actorId }) => {
    const now = Date.now();
    const reply = await refused(() => db.extendTrial({ requestId, days, at: iso(now), actorId }));
    Object.assign(s, afterExtension(s, reply.trialEndsAt, now));
    [s.endVersion, s.changes] = [s.endVersion + 1, s.changes + 1];
    return reply;
  }, approved);

  // ── Submitted: until an operator decides ──
  await condition(() => s.trialEndsAt !== null || s.rejected);
  // ── Rejected: the run ends ──
  if (s.rejected) {
    await condition(allHandlersFinished);
    return { status: 'Rejected', trialEndsAt: null };
  }
  // ── Approved: the emails owed first, then the next timer ──
  for (;;) {
    if (s.welcome) {
      s.welcome = false;
      await attempt('first setup token', async () => s.emails.push((await issue('email', null)).tokenId));
      continue;
    }
    const tokenId = s.emails.shift();
    if (tokenId) {
      await attempt('setup email', () => mail.sendSetupEmail({ requestId, tokenId }));
      continue;
    }
    const due = nextDue(s)!;
    const now = Date.now();
    const seen = s.changes;
    if (due.at > now) {
      const resume = resumeOf(s);
      if (workflowInfo().historyLength > HISTORY_LIMIT && resume && allHandlersFinished()) {
        return continueAsNew<typeof trialRequestWorkflow>({ ...input, resume });
      }
      await condition(() => s.changes !== seen, due.at - now);
    } else if (due.kind === 'token') {
      // the open token's 7 days
      await db.expireSetupToken({ tokenId: due.tokenId });
      if (s.openToken?.tokenId === due.tokenId) s.openToken = null;
    } else if (due.kind === 'reminder') {
      const end = s.trialEndsAt!;
      await attempt('trial reminder', () => mail.sendTrialReminder({ requestId, trialEndsAt: iso(end) }));
      s.remindedFor = end;
    } else if (due.kind === 'end') {
      const version = s.endVersion;
      const r = await db.expireTrial({ requestId, at: iso(now) });
      if (version === s.endVersion) Object.assign(s, afterExpiry(r, now));
    } else {
      // retire: KEEP_AFTER_END_MS after the end, unless a late change came in meanwhile
      await condition(allHandlersFinished);
      if (s.changes === seen) return { status: s.status, trialEndsAt: iso(s.trialEndsAt!) };
    }
  }
}
