// What only the delivery workflows need beside the domain's retry rules
// (domain/webhooks/retry.rules.ts). Pure: no Node APIs, no clock.
import type { Outcome } from '../../domain/webhooks/types';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The ticketing schedule, for workflows started before the schedule was an input (their
 * input has none): waits of 0, 5 min, 30 min, 2 h, 8 h. New starts pass their schedule.
 */
export const SCHEDULE_BEFORE_INPUTS: readonly number[] = Object.freeze([0, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]);

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

export type NextStep = { action: 'done' } | { action: 'retry'; attempt: number; delayMs: number } | { action: 'give_up' };

/** What the workflow does after attempt `n` of `delaysMs` ended with `outcome`. */
export function nextStep(n: number, outcome: Outcome, delaysMs: readonly number[]): NextStep {
  assertAttempt(n, delaysMs);
  if (outcome.ok) return { action: 'done' };
  if (n === delaysMs.length) return { action: 'give_up' };
  return { action: 'retry', attempt: n + 1, delayMs: delayBeforeAttempt(n + 1, delaysMs) };
}
