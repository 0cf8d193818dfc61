// Webhook retry schedules as data, the math over them, and the rule that says whether one
// attempt failed. Pure: imported by the delivery workflow (no Node APIs, no clock; times
// come in as epoch milliseconds) and unit-tested without a server. Each API's schedule is
// in lib/webhooks/retry-schedules.ts and reaches the workflow in its input; the readings
// of the specs are written down in docs/webhooks.md ("Retry schedule").

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The ticketing schedule, for workflows started before the schedule was an input (their
 * input has none): waits of 0, 5 min, 30 min, 2 h, 8 h. New starts pass their schedule.
 */
export const SCHEDULE_BEFORE_INPUTS: readonly number[] = Object.freeze([0, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]);

/** At most this many attempts in one schedule: it bounds a delivery's history. */
export const MAX_SCHEDULE_ATTEMPTS = 10;

/** A receiver that has not answered within this time has failed the attempt. */
export const RECEIVER_TIMEOUT_MS = 30_000;

/** Throws a RangeError unless `delaysMs` is a usable schedule: 1-10 waits, the first 0, none negative. */
export function checkSchedule(delaysMs: readonly number[]): void {
  if (!Array.isArray(delaysMs) || delaysMs.length < 1 || delaysMs.length > MAX_SCHEDULE_ATTEMPTS) {
    throw new RangeError(`a retry schedule has 1 to ${MAX_SCHEDULE_ATTEMPTS} attempts`);
  }
  if (delaysMs[0] !== 0) throw new RangeError('attempt 1 of a retry schedule goes out at once (wait 0)');
  if (!delaysMs.every((d) => Number.isInteger(d) && d >= 0)) throw new RangeError('retry waits are whole, non-negative milliseconds');
}

function assertAttempt(n: number, delaysMs: readonly number[]): void {
  if (!Number.isInteger(n) || n < 1 || n > delaysMs.length) {
    throw new RangeError(`attempt must be an integer from 1 to ${delaysMs.length}, got ${n}`);
  }
}

/** Wait before attempt `n` (1-based), counted from the previous attempt; 0 for attempt 1. */
export function delayBeforeAttempt(n: number, delaysMs: readonly number[]): number {
  assertAttempt(n, delaysMs);
  return delaysMs[n - 1];
}

/**
 * The planned start time of every attempt when each one fails, given when attempt 1
 * starts; for ticketing +0, +5 min, +35 min, +2 h 35 min, +10 h 35 min.
 */
export function attemptTimes(firstAttemptAt: number, delaysMs: readonly number[]): number[] {
  checkSchedule(delaysMs);
  const times: number[] = [];
  let at = firstAttemptAt;
  for (const wait of delaysMs) times.push((at += wait));
  return times;
}

/** Only a 2xx answer is a success: redirects are not followed, so a 3xx fails too. */
export function isSuccess(status: number): boolean {
  return Number.isInteger(status) && status >= 200 && status <= 299;
}

export type FailureReason = 'non_2xx' | 'timeout' | 'unreachable';
export type Outcome = { ok: true; status: number } | { ok: false; reason: FailureReason; detail: string };

export interface AttemptResult {
  /** HTTP status of the answer, when one arrived */
  status?: number;
  /** true when no complete answer arrived within RECEIVER_TIMEOUT_MS */
  timedOut?: boolean;
  /** connection-level error (DNS, refused, TLS, forbidden address), when the request failed */
  error?: string;
}

/**
 * Whether an attempt succeeded. A time-out wins over a status (the answer did not complete
 * in time); an error without a status means the receiver was unreachable; a result with
 * nothing in it is treated as unreachable rather than as a success.
 */
export function classifyOutcome(r: AttemptResult): Outcome {
  if (r.timedOut) return { ok: false, reason: 'timeout', detail: `no answer within ${RECEIVER_TIMEOUT_MS / 1000} s` };
  if (r.status === undefined) return { ok: false, reason: 'unreachable', detail: r.error ?? 'no answer' };
  if (isSuccess(r.status)) return { ok: true, status: r.status };
  return { ok: false, reason: 'non_2xx', detail: `receiver answered ${r.status}` };
}

export type NextStep = { action: 'done' } | { action: 'retry'; attempt: number; delayMs: number } | { action: 'give_up' };

/** What the workflow does after attempt `n` of `delaysMs` ended with `outcome`. */
export function nextStep(n: number, outcome: Outcome, delaysMs: readonly number[]): NextStep {
  assertAttempt(n, delaysMs);
  if (outcome.ok) return { action: 'done' };
  if (n === delaysMs.length) return { action: 'give_up' };
  return { action: 'retry', attempt: n + 1, delayMs: delayBeforeAttempt(n + 1, delaysMs) };
}
