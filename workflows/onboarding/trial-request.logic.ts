// The trial request workflow's state and the pure decisions over it that are the
// workflow's own (its rules of time are domain/onboarding/trial-timers.rules.ts): the
// state of a new or continued run, what a continued run carries, and how an activity's
// refusal becomes the refusal of the Update that called it.
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import type { TrialTimes } from '../../domain/onboarding/trial-timers.rules';
import type { TrialRequestResume, TrialRequestStatus } from './contract';

/** A run whose history grew past this many events continues as new at a quiet moment. */
export const HISTORY_LIMIT = 2_000;

/** Everything one run of a trial request workflow knows. */
export interface TrialState extends TrialTimes {
  status: TrialRequestStatus;
  /** the first setup token and its email are still to be made (set by the approval) */
  welcome: boolean;
  /** setup emails to send, by token id, oldest first */
  emails: string[];
  /** counts every change an Update makes: the timer wait starts over */
  changes: number;
  /** counts extensions: an expiry answer from before one is stale */
  endVersion: number;
  /** the rejection is stored (status turns Rejected at once, this only once it is): the run ends */
  rejected: boolean;
}

export function initialState(resume?: TrialRequestResume): TrialState {
  const fresh = { welcome: false, emails: [], changes: 0, endVersion: 0, rejected: false };
  if (resume) return { ...resume, ...fresh };
  return { status: 'Submitted', trialEndsAt: null, endSetAt: null, remindedFor: null, overAt: null, openToken: null, ...fresh };
}

/** What a continued run needs: only at a quiet moment (no email or first token pending). */
export function resumeOf(s: TrialState): TrialRequestResume | null {
  if (s.status !== 'Approved' || s.trialEndsAt === null || s.endSetAt === null || s.welcome || s.emails.length) return null;
  return { status: 'Approved', trialEndsAt: s.trialEndsAt, endSetAt: s.endSetAt, remindedFor: s.remindedFor, overAt: s.overAt, openToken: s.openToken };
}

/**
 * The failure an Update fails with when its activity failed: a business refusal
 * (`email_taken`, `password_already_set`, ...: non-retryable) as itself (type, message,
 * details: the kind the activity gave it), so the API sees it as the activity made it;
 * anything else unchanged.
 */
export function activityRefusal(err: unknown): unknown {
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
    throw activityRefusal(err);
  }
}
