// The trial request workflow's pure rules (docs/trial-onboarding.md, "The workflow"): its
// state after approval, which timer is due next, and how an activity's refusal becomes
// the refusal of the Update that called it.
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { TRIAL_REMINDER_BEFORE_MS, type TrialRequestResume, type TrialRequestStatus } from './contract';

export const DAY_MS = 24 * 3600 * 1000;
/**
 * How long the workflow stays after the trial ended without an extension: an operator can
 * still extend it, resend the setup email or make a link; later the request takes no more
 * actions (the API answers 409) and the workflow ends.
 */
export const KEEP_AFTER_END_MS = 90 * DAY_MS;
/** A run whose history grew past this many events continues as new at a quiet moment. */
export const HISTORY_LIMIT = 2_000;

export interface TrialState extends Omit<TrialRequestResume, 'status' | 'trialEndsAt' | 'endSetAt'> {
  status: TrialRequestStatus;
  /** null until provisioned */
  trialEndsAt: number | null;
  endSetAt: number | null;
  /** the first setup token and its email are still to be made (set by the approval) */
  welcome: boolean;
  /** setup emails to send, by token id, oldest first */
  emails: string[];
}

export function initialState(resume?: TrialRequestResume): TrialState {
  if (resume) return { ...resume, welcome: false, emails: [] };
  return { status: 'Submitted', trialEndsAt: null, endSetAt: null, remindedFor: null, overAt: null, openToken: null, welcome: false, emails: [] };
}

/** What a continued run needs: only at a quiet moment (no email or first token pending). */
export function resumeOf(s: TrialState): TrialRequestResume | null {
  if (s.status !== 'Approved' || s.trialEndsAt === null || s.endSetAt === null || s.welcome || s.emails.length) return null;
  return { status: 'Approved', trialEndsAt: s.trialEndsAt, endSetAt: s.endSetAt, remindedFor: s.remindedFor, overAt: s.overAt, openToken: s.openToken };
}

/**
 * The reminder's time for the current end: TRIAL_REMINDER_BEFORE_MS before it, and only
 * when that is after the moment the end was set (a trial, or what an extension leaves,
 * of 3 days or less gets none); null once done for this end.
 */
export function reminderAt(s: TrialState): number | null {
  if (s.trialEndsAt === null || s.endSetAt === null || s.overAt !== null || s.remindedFor === s.trialEndsAt) return null;
  const at = s.trialEndsAt - TRIAL_REMINDER_BEFORE_MS;
  return at > s.endSetAt ? at : null;
}

export type Due =
  | { kind: 'token'; at: number; tokenId: string }
  | { kind: 'reminder'; at: number }
  | { kind: 'end'; at: number }
  /** the trial has been over KEEP_AFTER_END_MS and no token is open: the workflow ends */
  | { kind: 'retire'; at: number };

/** The next timer of an approved request (the earliest; on a tie, the token's first). */
export function nextDue(s: TrialState): Due | null {
  if (s.trialEndsAt === null) return null;
  const due: Due[] = [];
  if (s.openToken) due.push({ kind: 'token', at: s.openToken.expiresAt, tokenId: s.openToken.tokenId });
  const reminder = reminderAt(s);
  if (reminder !== null) due.push({ kind: 'reminder', at: reminder });
  if (s.overAt === null) due.push({ kind: 'end', at: s.trialEndsAt });
  else if (!s.openToken) due.push({ kind: 'retire', at: s.overAt + KEEP_AFTER_END_MS });
  return due.sort((a, b) => a.at - b.at)[0] ?? null;
}

/**
 * The state after expireTrial at `now`: over when it expired, or when its stored end is
 * not later (no longer a trial: nothing to expire); a later stored end (an extension the
 * workflow did not see) is the new end to wait for.
 */
export function afterExpiry(s: TrialState, r: { expired: boolean; trialEndsAt: string }, now: number): void {
  const later = Date.parse(r.trialEndsAt);
  if (!r.expired && later > now) Object.assign(s, { trialEndsAt: later, endSetAt: now });
  else s.overAt = now;
}

/**
 * The failure an Update fails with when its activity failed: a business refusal
 * (`email_taken`, `password_already_set`, ...: non-retryable) as itself, so the API sees
 * its type; anything else unchanged.
 */
export function refusal(err: unknown): unknown {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.nonRetryable) {
    return ApplicationFailure.create({ message: cause.message, type: cause.type ?? undefined, nonRetryable: true, details: cause.details ?? undefined });
  }
  return err;
}

/** Runs an Update's activity step; its refusal is the Update's (the API answers 409). */
export async function refused<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw refusal(err);
  }
}
