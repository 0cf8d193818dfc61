import { deliverOne, onExhausted, scheduleOf } from './attempts';
import type { DeliveryResult, WebhookDeliveryInput } from './contract';

/**
 * One delivery on its own: a redelivery (the whole schedule again, numbered after the
 * attempts already made) or a test send (mode 'once': one attempt, nothing after it).
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryResult> {
  const schedule = scheduleOf(input);
  const once = input.mode === 'once';
  const outcome = await deliverOne(input.deliveryId, schedule, input.previousAttempts ?? 0, once ? 1 : schedule.delaysMs.length);
  if (outcome === 'failed' && !once && schedule.onExhausted === 'pause-endpoint') {
    await onExhausted.pauseExhaustedEndpoints({ deliveryIds: [input.deliveryId] });
  }
  return outcome;
}
