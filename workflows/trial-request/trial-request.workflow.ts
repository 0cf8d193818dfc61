import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler } from '@temporalio/workflow';
import { upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import { ALREADY_DECIDED, approveUpdate, extendUpdate, NOT_APPROVED, rejectUpdate, resendSetupUpdate, SETUP_TOKEN_TTL_MS, setupLinkUpdate, trialStateQuery } from './contract';
import type { TokenReply, TrialRequestActivities, TrialRequestInput, TrialRequestResult } from './contract';
import { refusal as domainRefusal } from '../refusal';
import { afterExpiry, DAY_MS, HISTORY_LIMIT, initialState, nextDue, refusal, refused, resumeOf } from './trial-request.logic';

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
 * `trial-request/<id>` (docs/trial-onboarding.md, "The workflow"): Submitted until an
 * operator approves (provisioning the trial) or rejects it (the workflow ends). Once
 * approved it emails a setup token and holds the timers: the newest open token's 7 days,
 * the reminder 3 days before the trial's end, the end itself; an extension moves the last
 * two. After the end it still takes extend, resend and setup-link for KEEP_AFTER_END_MS.
 */
export async function trialRequestWorkflow(input: TrialRequestInput): Promise<TrialRequestResult> {
  const { requestId } = input;
  const s = initialState(input.resume);
  let changes = 0; // every change an Update makes: the timer wait starts over
  let endVersion = 0; // every extension: an expiry answer from before it is stale
  let issuing = false; // one token at a time, so the newest one is the workflow's openToken
  let rejected = false;
  const show = () => void (input.searchAttributes && upsertSearchAttributes({ TrialStatus: [s.status] }));
  if (input.resume) show(); // continue-as-new is not asked to carry them over
  const undecided = (..._: unknown[]) => {
    if (s.status !== 'Submitted') throw domainRefusal('conflict', ALREADY_DECIDED, `The trial request is ${s.status} already`);
  };
  const approved = (..._: unknown[]) => {
    if (s.status !== 'Approved' || s.trialEndsAt === null) throw domainRefusal('conflict', NOT_APPROVED, `The trial request is not approved (${s.status})`);
  };
  /** A main-loop step that may fail for good without stopping the timers. */
  const attempt = (what: string, step: () => Promise<unknown>) =>
    step().catch((err) => log.warn(`trial request ${what} failed`, { requestId, error: String(err) }));

  async function issue(purpose: 'email' | 'link', actorId: string | null): Promise<TokenReply> {
    await condition(() => !issuing);
    issuing = true;
    try {
      const [tokenId, now] = [uuid4(), Date.now()];
      const reply = await db.issueSetupToken({ requestId, tokenId, purpose, createdAt: iso(now), expiresAt: iso(now + SETUP_TOKEN_TTL_MS), actorId });
      s.openToken = { tokenId, expiresAt: Date.parse(reply.expiresAt) };
      changes++;
      return reply;
    } finally {
      issuing = false;
    }
  }

  setHandler(trialStateQuery, () => ({ status: s.status, trialEndsAt: s.trialEndsAt === null ? null : iso(s.trialEndsAt), openTokenId: s.openToken?.tokenId ?? null }));
  const decide = { validator: undecided };
  setHandler(approveUpdate, async (args) => {
    s.status = 'Approved'; // at once: another approve or a reject is refused while this one provisions
    const now = Date.now();
    try {
      const reply = await db.provisionTrial({ requestId, ...args, trialEndsAt: iso(now + args.trialDays * DAY_MS) });
      Object.assign(s, { trialEndsAt: Date.parse(reply.trialEndsAt), endSetAt: now, welcome: true });
      show();
      changes++;
      return reply;
    } catch (err) {
      s.status = 'Submitted';
      throw refusal(err);
    }
  }, decide);
  setHandler(rejectUpdate, async (args) => {
    s.status = 'Rejected';
    try {
      await db.rejectTrialRequest({ requestId, ...args });
    } catch (err) {
      s.status = 'Submitted';
      throw refusal(err);
    }
    [rejected, changes] = [true, changes + 1];
    show();
    return { status: 'Rejected' as const };
  }, decide);
  const setup = { validator: approved };
  setHandler(resendSetupUpdate, async ({ actorId }) => {
    const token = await refused(() => issue('email', actorId));
    s.emails.push(token.tokenId); // the main loop emails it, after this reply
    changes++;
    return token;
  }, setup);
  setHandler(setupLinkUpdate, ({ actorId }) => refused(() => issue('link', actorId)), setup);
  setHandler(extendUpdate, async ({ days, actorId }) => {
    const now = Date.now();
    const reply = await refused(() => db.extendTrial({ requestId, days, at: iso(now), actorId }));
    // extensions only move the end later: of two at once, the later answer is the end
    Object.assign(s, { trialEndsAt: Math.max(s.trialEndsAt!, Date.parse(reply.trialEndsAt)), endSetAt: now, overAt: null });
    [endVersion, changes] = [endVersion + 1, changes + 1];
    return reply;
  }, setup);

  await condition(() => s.trialEndsAt !== null || rejected);
  if (rejected) {
    await condition(allHandlersFinished);
    return { status: 'Rejected', trialEndsAt: null };
  }
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
    const seen = changes;
    if (due.at > now) {
      const resume = resumeOf(s);
      if (workflowInfo().historyLength > HISTORY_LIMIT && resume && allHandlersFinished()) {
        return continueAsNew<typeof trialRequestWorkflow>({ ...input, resume });
      }
      await condition(() => changes !== seen, due.at - now);
    } else if (due.kind === 'token') {
      await db.expireSetupToken({ tokenId: due.tokenId });
      if (s.openToken?.tokenId === due.tokenId) s.openToken = null;
    } else if (due.kind === 'reminder') {
      const end = s.trialEndsAt!;
      await attempt('trial reminder', () => mail.sendTrialReminder({ requestId, trialEndsAt: iso(end) }));
      s.remindedFor = end;
    } else if (due.kind === 'end') {
      const version = endVersion;
      const r = await db.expireTrial({ requestId, at: iso(now) });
      if (version === endVersion) afterExpiry(s, r, now);
    } else {
      await condition(allHandlersFinished);
      if (changes === seen) return { status: s.status, trialEndsAt: iso(s.trialEndsAt!) };
    }
  }
}
