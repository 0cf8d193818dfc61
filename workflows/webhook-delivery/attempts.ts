// What both delivery workflows run: the activities they call, the schedule they follow,
// and one delivery's attempts one after another.
import { ApplicationFailure, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import { attemptTimes, checkSchedule, RECEIVER_TIMEOUT_MS, roundTimeoutMs } from '../../domain/webhooks/retry.rules';
import type { DeliveryResult, RetrySchedule, WebhookActivities, WebhookExhaustedActivities } from './contract';
import { SCHEDULE_BEFORE_INPUTS } from './delivery.logic';

// Attempts run as local activities: the POST happens inside the workflow task, so a batch
// whose deliveries all succeed first time is one workflow task, with no activity-task
// round trips through the server (docs/webhooks.md, "Workflow shape"). Their own retries
// cover only our side failing (the database, the worker dying mid-way); the receiver's
// answer is a result, not an error.
const ATTEMPT_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;
export const acts = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: RECEIVER_TIMEOUT_MS + 15_000,
  retry: ATTEMPT_RETRY,
});

/**
 * A whole round's attempts in one local activity: one result to record in the workflow task
 * instead of one per delivery (docs/webhooks.md, "Workflow shape"). Its time-out grows with
 * the round (roundTimeoutMs).
 */
export function attemptRound(input: { deliveryIds: string[]; attempt: number; scheduledAt: string; last: boolean }): Promise<DeliveryResult[]> {
  const { attemptDeliveries } = proxyLocalActivities<WebhookActivities>({ startToCloseTimeout: roundTimeoutMs(input.deliveryIds.length), retry: ATTEMPT_RETRY });
  return attemptDeliveries(input);
}

// Pausing an endpoint sends an email: a regular activity, retried until the SMTP server
// has taken it (the pause commits only then, so a retry neither loses nor repeats it).
export const onExhausted = proxyActivities<WebhookExhaustedActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '15 minutes' },
});

/** The input's schedule (the ticketing one when it has none); an unusable one fails the run. */
export function scheduleOf(input: { schedule?: RetrySchedule }): RetrySchedule {
  const schedule = input.schedule ?? { delaysMs: [...SCHEDULE_BEFORE_INPUTS] };
  try {
    checkSchedule(schedule.delaysMs);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'InvalidRetrySchedule');
  }
  return schedule;
}

export async function waitUntil(at: number): Promise<void> {
  if (at > Date.now()) await sleep(at - Date.now());
}

/**
 * One delivery, attempt after attempt, on `schedule`: success stops it, a paused or deleted
 * endpoint skips the rest, the failure of its last attempt makes it permanently failed.
 */
export async function deliverOne(deliveryId: string, schedule: RetrySchedule, previousAttempts: number, attempts: number): Promise<DeliveryResult> {
  const times = attemptTimes(Date.now(), schedule.delaysMs).slice(0, attempts);
  for (const [i, at] of times.entries()) {
    await waitUntil(at);
    const last = i === times.length - 1;
    const outcome = await acts.attemptDelivery({ deliveryId, attempt: previousAttempts + i + 1, scheduledAt: new Date(at).toISOString(), last });
    if (outcome !== 'failed') return outcome;
  }
  return 'failed';
}
