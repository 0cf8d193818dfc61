// What only the delivery workflows need beside the domain's retry rules
// (domain/webhooks/retry.rules.ts). Pure: no Node APIs, no clock.
import type { DeliveryResult } from '../../domain/webhooks/types';
import type { BatchTally } from './contract';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The ticketing schedule, for workflows started before the schedule was an input (their
 * input has none): waits of 0, 5 min, 30 min, 2 h, 8 h. New starts pass their schedule.
 * Frozen here on purpose: a later change of the ticketing schedule must not change how
 * those recorded runs replay (docs/webhooks.md, "Runs started before the schedule was an input").
 */
export const SCHEDULE_BEFORE_INPUTS: readonly number[] = Object.freeze([0, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 8 * HOUR]);

/** `counted` plus one for each outcome. */
export function tallyOf(outcomes: DeliveryResult[], counted: BatchTally = { succeeded: 0, failed: 0, skipped: 0 }): BatchTally {
  const t = { ...counted };
  for (const o of outcomes) t[o] += 1;
  return t;
}
