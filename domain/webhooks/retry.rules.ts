// The rules of a webhook delivery: what a usable schedule is, when each attempt is due,
// and whether one attempt failed. Pure (no Node APIs, no clock; times come in as epoch
// milliseconds): the delivery workflows import it as well as the activities, and unit
// tests cover it without a server. The readings of the specs: docs/webhooks.md
// ("Retry schedule").
import type { AttemptResult, Outcome } from './types';

/** At most this many attempts in one schedule: it bounds a delivery's history. */
export const MAX_SCHEDULE_ATTEMPTS = 10;

/** A receiver that has not answered within this time has failed the attempt. */
export const RECEIVER_TIMEOUT_MS = 30_000;

/** A batch round's attempts run at most this many at once (one local activity per round). */
export const ROUND_CONCURRENCY = 100;

/**
 * How long one round's activity may take: every wave of ROUND_CONCURRENCY attempts may wait
 * out the receivers' time-out, plus time for our own reads and writes.
 */
export function roundTimeoutMs(deliveries: number): number {
  return Math.max(1, Math.ceil(deliveries / ROUND_CONCURRENCY)) * RECEIVER_TIMEOUT_MS + 15_000;
}

/** Throws a RangeError unless `delaysMs` is a usable schedule: 1-10 waits, the first 0, none negative. */
export function checkSchedule(delaysMs: readonly number[]): void {
  if (!Array.isArray(delaysMs) || delaysMs.length < 1 || delaysMs.length > MAX_SCHEDULE_ATTEMPTS) {
    throw new RangeError(`a retry schedule has 1 to ${MAX_SCHEDULE_ATTEMPTS} attempts`);
  }
  if (delaysMs[0] !== 0) throw new RangeError('attempt 1 of a retry schedule goes out at once (wait 0)');
  if (!delaysMs.every((d) => Number.isInteger(d) && d >= 0)) throw new RangeError('retry waits are whole, non-negative milliseconds');
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
