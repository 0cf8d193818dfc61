// What callers know about a trial request's workflow (docs/trial-onboarding.md): its id,
// queue, input, updates and activities. The API imports this file, never the
// implementation. Inputs, results and replies carry ids, times and counts only: the
// request's text, the owner's email and every raw setup token stay out of the history
// (a token is re-derived from its id by the activity that emails it, lib/setup-tokens.ts).
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { WorkflowStartEntry } from '../start-entry';

export const ONBOARDING_QUEUE = 'onboarding';
export const TRIAL_REQUEST_WORKFLOW_TYPE = 'trialRequestWorkflow';

/** One workflow per trial request, started once from the workflow-start outbox. */
export const trialRequestWorkflowId = (requestId: string) => `trial-request/${requestId}`;

export type TrialRequestStatus = 'Submitted' | 'Approved' | 'Rejected';

export interface TrialRequestInput {
  requestId: string;
  /** the server knows TrialStatus: upsert it as the request moves */
  searchAttributes?: boolean;
  /** a continued run (continue-as-new) of an approved request: its timers' state */
  resume?: TrialRequestResume;
}

/** An approved request's timers, as one run hands them to the next (times in ms). */
export interface TrialRequestResume {
  status: 'Approved';
  trialEndsAt: number;
  /** when the current end was set (approval, extension): its reminder only if later than this */
  endSetAt: number;
  /** the end whose reminder is done (sent or skipped) */
  remindedFor: number | null;
  /** when the trial ended (expired, or found over otherwise); null while it runs */
  overAt: number | null;
  /** the newest setup token while it is open */
  openToken: { tokenId: string; expiresAt: number } | null;
}

/** What the workflow ends with: Rejected, or Approved once its trial has been over for a while. */
export interface TrialRequestResult {
  status: TrialRequestStatus;
  /** ISO; null when rejected */
  trialEndsAt: string | null;
}

/** The token's 7 days and the reminder's 3 days before the end: rules of time, in domain/. */
export { SETUP_TOKEN_TTL_MS, TRIAL_REMINDER_BEFORE_MS } from '../../domain/onboarding/trial-timers.rules';

export interface ApproveArgs {
  planSlug: string;
  trialDays: number;
  adminNotes: string | null;
  actorId: string;
}
export interface ApproveReply {
  status: 'Approved';
  companyId: string;
  ownerId: string;
  /** ISO */
  trialEndsAt: string;
}
export interface RejectArgs {
  adminNotes: string;
  actorId: string;
}
export interface ActorArgs {
  actorId: string;
}
/** A fresh setup token: its id (never the token) and when it expires (ISO). */
export interface TokenReply {
  tokenId: string;
  expiresAt: string;
}
export interface ExtendArgs {
  days: number;
  actorId: string;
}
export interface ExtendReply {
  trialEndsAt: string;
}

/** Submitted → Approved; provisions company, owner and membership, then emails a setup link. */
export const approveUpdate = defineUpdate<ApproveReply, [ApproveArgs]>('approve');
/** Submitted → Rejected (adminNotes required). */
export const rejectUpdate = defineUpdate<{ status: 'Rejected' }, [RejectArgs]>('reject');
/** Approved only: a fresh token (older open ones voided), emailed. */
export const resendSetupUpdate = defineUpdate<TokenReply, [ActorArgs]>('resendSetup');
/** Approved only: a fresh token (older open ones voided) whose link the API answers once. */
export const setupLinkUpdate = defineUpdate<TokenReply, [ActorArgs]>('setupLink');
/** Approved only: the trial ends `days` later (from its end, or from now when already ended). */
export const extendUpdate = defineUpdate<ExtendReply, [ExtendArgs]>('extend');

export const trialStateQuery = defineQuery<{ status: TrialRequestStatus; trialEndsAt: string | null; openTokenId: string | null }>('state');

/** The codes the updates refuse with (workflows/refusal.ts, kind conflict): the push API answers 409 CONFLICT. */
export const ALREADY_DECIDED = 'trial_request_decided';
export const NOT_APPROVED = 'trial_request_not_approved';

/** The setup email's outcome as recorded on the request (docs/trial-onboarding.md, "Email"). */
export interface SetupEmailOutcome {
  /** `sent`: a provider accepted it; `logged`: only the log fallback took it */
  state: 'sent' | 'logged';
  provider: string;
  messageId: string | null;
}

export interface TrialRequestActivities {
  /**
   * One transaction: company (status trial, trialEndsAt, plan), owner user without a
   * password, owner membership, the request Approved with its decision, audit
   * `trial_request.approved`. A repeat answers what the first made. Refuses (conflict,
   * `email_taken`) when an account with the request's email exists.
   */
  provisionTrial(input: { requestId: string; planSlug: string; trialDays: number; adminNotes: string | null; actorId: string; trialEndsAt: string }): Promise<ApproveReply>;
  /** The request Rejected with its notes, audit `trial_request.rejected`; a repeat is a no-op. */
  rejectTrialRequest(input: { requestId: string; adminNotes: string; actorId: string }): Promise<void>;
  /**
   * Stores the hash of the token `tokenId` (made by the workflow, so a repeat inserts
   * nothing new), voiding the owner's older open tokens. `purpose: 'link'` also records
   * the link's generation time and audit `trial_request.setup_link_generated`.
   */
  issueSetupToken(input: { requestId: string; tokenId: string; purpose: 'email' | 'link'; createdAt: string; expiresAt: string; actorId: string | null }): Promise<TokenReply>;
  /** Emails the link of token `tokenId` through the chain; records attempt, provider, id, error; audit `trial_request.setup_email_sent`. Null: the token is no longer open (used, voided, expired), nothing sent. */
  sendSetupEmail(input: { requestId: string; tokenId: string }): Promise<SetupEmailOutcome | null>;
  /** Marks the token expired if it is still open (the 7-day timer). */
  expireSetupToken(input: { tokenId: string }): Promise<void>;
  /** The reminder email for the trial ending at `trialEndsAt`, once per end. */
  sendTrialReminder(input: { requestId: string; trialEndsAt: string }): Promise<void>;
  /**
   * At `at` (the workflow's time): the company becomes trial_expired unless its stored
   * end is later (an extension); answers the stored end and whether it expired.
   */
  expireTrial(input: { requestId: string; at: string }): Promise<{ expired: boolean; trialEndsAt: string }>;
  /** The trial's new end: `days` after its stored end, or after `at` when it already ended; status back to trial. */
  extendTrial(input: { requestId: string; days: number; at: string; actorId: string }): Promise<ExtendReply>;
}

/** A trial request's entry in the workflow-start outbox (`searchAttributes`: config `temporalSearchAttributes`). */
export function trialRequestWorkflowStart(searchAttributes: boolean) {
  return (requestId: string): WorkflowStartEntry<TrialRequestInput> => ({
    workflowId: trialRequestWorkflowId(requestId),
    workflowType: TRIAL_REQUEST_WORKFLOW_TYPE,
    taskQueue: ONBOARDING_QUEUE,
    args: [{ requestId, searchAttributes }],
    searchAttributes: searchAttributes ? { TrialStatus: ['Submitted'] } : undefined,
  });
}
