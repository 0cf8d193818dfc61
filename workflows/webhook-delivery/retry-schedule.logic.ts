// What only the delivery workflows need beside the domain's retry rules
// (domain/webhooks/retry.rules.ts). Pure: no Node APIs, no clock.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The ticketing schedule, for workflows started before the schedule was an input (their
 * input has none): waits of 0, 5 min, 30 min, 2 h, 8 h. New starts pass their schedule.
 */
export const SCHEDULE_BEFORE_INPUTS: readonly number[] = Object.freeze([0, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]);
