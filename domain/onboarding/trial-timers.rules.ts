// The rules of time of an approved trial request (docs/trial-onboarding.md, "The
// workflow"): how long a setup token lives, when the reminder goes out, which timer is
// due next and what the trial's end leaves. Pure: times come in as numbers (ms), so the
// trial request workflow imports them (workflows/onboarding/trial-request.workflow.ts)
// and unit tests run them without a server.

export const DAY_MS = 24 * 3600 * 1000;
/** Setup tokens live 7 days (push spec, Limits); the workflow's timer marks them expired. */
export const SETUP_TOKEN_TTL_MS = 7 * DAY_MS;
/** The trial reminder goes out this long before the trial's end. */
export const TRIAL_REMINDER_BEFORE_MS = 3 * DAY_MS;
/**
 * How long the workflow stays after the trial ended without an extension: an operator can
 * still extend it, resend the setup email or make a link; later the request takes no more
 * actions (the API answers 409) and the workflow ends.
 */
export const KEEP_AFTER_END_MS = 90 * DAY_MS;

/** The times an approved request's timers are set from (ms). */
export interface TrialTimes {
  /** null until provisioned */
  trialEndsAt: number | null;
  /** when the current end was set (approval, extension): its reminder only if later than this */
  endSetAt: number | null;
  /** the end whose reminder is done (sent or skipped) */
  remindedFor: number | null;
  /** when the trial ended (expired, or found over otherwise); null while it runs */
  overAt: number | null;
  /** the newest setup token while it is open */
  openToken: { tokenId: string; expiresAt: number } | null;
}

/** The end of a trial of `days` approved at `now`. */
export const trialEndAfter = (now: number, days: number): number => now + days * DAY_MS;

/** When a setup token made at `now` expires. */
export const tokenExpiryAfter = (now: number): number => now + SETUP_TOKEN_TTL_MS;

/**
 * The reminder's time for the current end: TRIAL_REMINDER_BEFORE_MS before it, and only
 * when that is after the moment the end was set (a trial, or what an extension leaves,
 * of 3 days or less gets none); null once done for this end.
 */
export function reminderAt(s: TrialTimes): number | null {
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
export function nextDue(s: TrialTimes): Due | null {
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
 * What the trial's end at `now` changes, given the stored end expireTrial answered: over
 * when it expired, or when its stored end is not later (no longer a trial: nothing to
 * expire); a later stored end (an extension the workflow did not see) is the new end to
 * wait for.
 */
export function afterExpiry(r: { expired: boolean; trialEndsAt: string }, now: number): Partial<TrialTimes> {
  const later = Date.parse(r.trialEndsAt);
  if (!r.expired && later > now) return { trialEndsAt: later, endSetAt: now };
  return { overAt: now };
}

/** Extensions only move the end later: of two at once, the later answer is the end. */
export function afterExtension(s: TrialTimes, storedEnd: string, now: number): Partial<TrialTimes> {
  return { trialEndsAt: Math.max(s.trialEndsAt!, Date.parse(storedEnd)), endSetAt: now, overAt: null };
}
