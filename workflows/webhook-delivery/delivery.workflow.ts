import { proxyActivities, sleep } from '@temporalio/workflow';
import type { DeliveryResult, WebhookActivities } from './contract';
import { attemptTimes, RECEIVER_TIMEOUT_MS } from './retry-schedule.logic';

// An attempt is one POST: its own retries (below) cover only our side failing (the
// database, the worker dying mid-way); the receiver's answer is a result, not an error.
const acts = proxyActivities<WebhookActivities>({
  startToCloseTimeout: RECEIVER_TIMEOUT_MS + 15_000,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One delivery of one event to one endpoint, on the spec's schedule (as data in
 * retry-schedule.logic.ts): attempts at +0, +5 min, +35 min, +2 h 35 min and
 * +10 h 35 min from the first; success stops it, a paused or deleted endpoint skips
 * the rest, five failures make it permanently failed.
 */
export async function webhookDeliveryWorkflow(input: { deliveryId: string }): Promise<DeliveryResult> {
  const times = attemptTimes(Date.now());
  let result: DeliveryResult = 'failed';
  for (const [i, at] of times.entries()) {
    if (at > Date.now()) await sleep(at - Date.now());
    const outcome = await acts.attemptDelivery({ deliveryId: input.deliveryId, attempt: i + 1, scheduledAt: new Date(at).toISOString() });
    if (outcome !== 'failed') {
      result = outcome;
      break;
    }
  }
  await acts.finishDelivery({ deliveryId: input.deliveryId, status: result, at: new Date().toISOString() });
  return result;
}
