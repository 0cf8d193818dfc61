// The ticketing spec's webhook retry schedule, held as data, plus the rule that says
// whether one attempt failed. Pure: imported by the delivery workflow (no Node APIs,
// no clock; times come in as epoch milliseconds) and unit-tested without a server.
// The reading of the spec is written down in docs/webhooks.md ("Retry schedule").

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Delays between consecutive attempts: RETRY_SCHEDULE[i] is the wait after attempt i+1
 * before attempt i+2. Attempt 1 is the first delivery and goes out immediately.
 */
export const RETRY_SCHEDULE: readonly number[] = Object.freeze([5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]);

/** After this many failed attempts the delivery is permanently failed. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE.length + 1; // 5

/** A receiver that has not answered within this time has failed the attempt. */
export const RECEIVER_TIMEOUT_MS = 30_000;

function assertAttempt(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS) {
    throw new RangeError(`attempt must be an integer from 1 to ${MAX_ATTEMPTS}, got ${n}`);
  }
}

/** Wait before attempt `n` (1-based), counted from the previous attempt; 0 for attempt 1. */
export function delayBeforeAttempt(n: number): number {
  assertAttempt(n);
  return n === 1 ? 0 : RETRY_SCHEDULE[n - 2];
}

/**
 * The planned start time of every attempt when each one fails, given when attempt 1
 * starts: +0, +5 min, +35 min, +2 h 35 min, +10 h 35 min.
 */
export function attemptTimes(firstAttemptAt: number): number[] {
  const times: number[] = [];
  let at = firstAttemptAt;
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    at += delayBeforeAttempt(n);
    times.push(at);
  }
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

/** What the workflow does after attempt `n` ended with `outcome`. */
export function nextStep(n: number, outcome: Outcome): NextStep {
  assertAttempt(n);
  if (outcome.ok) return { action: 'done' };
  if (n === MAX_ATTEMPTS) return { action: 'give_up' };
  return { action: 'retry', attempt: n + 1, delayMs: delayBeforeAttempt(n + 1) };
}
