// Each API's webhook retry schedule, as data. The caller that starts a delivery workflow
// (the outbox dispatcher, a redelivery) passes its API's schedule in the input; the
// workflow holds no schedule of its own. Readings of the specs: docs/webhooks.md.
import type { RetrySchedule } from './types';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Ticketing spec: attempt 1 at once, then 5 min, 30 min, 2 h and 8 h after the previous
 * one (+0, +5 min, +35 min, +2 h 35 min, +10 h 35 min); then permanently failed.
 */
export const TICKETING_RETRY_SCHEDULE: RetrySchedule = Object.freeze({
  delaysMs: Object.freeze([0, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]) as number[],
});

/**
 * Platform spec: "immediately, then after 1 minute, 5 minutes, 30 minutes and 2 hours.
 * After 5 failed attempts the webhook is paused and an email notification is sent."
 * Read as the ticketing one is (each wait from the previous attempt): +0, +1 min, +6 min,
 * +36 min, +2 h 36 min; then the endpoint is paused and its workspace emailed.
 */
export const PLATFORM_RETRY_SCHEDULE: RetrySchedule = Object.freeze({
  delaysMs: Object.freeze([0, 1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR]) as number[],
  onExhausted: 'pause-endpoint' as const,
});

/** A test send: one attempt, nothing after it. */
export const ONE_ATTEMPT: RetrySchedule = Object.freeze({ delaysMs: Object.freeze([0]) as number[] });
