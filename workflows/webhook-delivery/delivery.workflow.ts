import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { DeliveryResult, WebhookActivities, WebhookBatchInput, WebhookDeliveryInput } from './contract';
import { attemptTimes, RECEIVER_TIMEOUT_MS } from './retry-schedule.logic';

// Attempts run as local activities: the POST happens inside the workflow task, so a batch
// whose deliveries all succeed first time is one workflow task, with no activity-task
// round trips through the server (docs/webhooks.md, "Workflow shape"). Their own retries
// cover only our side failing (the database, the worker dying mid-way); the receiver's
// answer is a result, not an error.
const acts = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: RECEIVER_TIMEOUT_MS + 15_000,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One delivery on the spec's schedule (as data in retry-schedule.logic.ts): attempts at
 * +0, +5 min, +35 min, +2 h 35 min and +10 h 35 min from the first; success stops it, a
 * paused or deleted endpoint skips the rest, five failures make it permanently failed.
 */
async function deliver({ deliveryId, mode = 'schedule', previousAttempts = 0 }: WebhookDeliveryInput): Promise<DeliveryResult> {
  const times = attemptTimes(Date.now()).slice(0, mode === 'once' ? 1 : undefined);
  for (const [i, at] of times.entries()) {
    if (at > Date.now()) await sleep(at - Date.now());
    const attempt = previousAttempts + i + 1;
    const last = i === times.length - 1;
    const outcome = await acts.attemptDelivery({ deliveryId, attempt, scheduledAt: new Date(at).toISOString(), last });
    if (outcome !== 'failed') return outcome;
  }
  return 'failed';
}

/** Every delivery of one dispatch batch, each on its own schedule, side by side. */
export async function webhookBatchWorkflow(input: WebhookBatchInput): Promise<DeliveryResult[]> {
  return Promise.all(input.deliveryIds.map((deliveryId) => deliver({ deliveryId })));
}

/** One delivery on its own: a redelivery (the whole schedule again) or a test send (one attempt). */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryResult> {
  return deliver(input);
}
