// What callers know about a webhook delivery: its id, queue and activity types.
export const WEBHOOKS_QUEUE = 'webhooks';
export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';
/** One workflow per delivery (`evt_…`), so a second start for the same delivery is refused. */
export const webhookDeliveryWorkflowId = (deliveryId: string) => `webhook-delivery/${deliveryId}`;

export type DeliveryResult = 'succeeded' | 'failed' | 'skipped';
export type AttemptOutcome = 'succeeded' | 'failed' | 'skipped';

export interface WebhookActivities {
  /** one attempt: skipped when the endpoint is paused or deleted, else POST and record it */
  attemptDelivery(input: { deliveryId: string; attempt: number; scheduledAt: string }): Promise<AttemptOutcome>;
  finishDelivery(input: { deliveryId: string; status: DeliveryResult; at: string }): Promise<void>;
}
