// What callers know about webhook deliveries: workflow ids, inputs, queue and activity types.
export const WEBHOOKS_QUEUE = 'webhooks';
export const WEBHOOK_BATCH_WORKFLOW_TYPE = 'webhookBatchWorkflow';
export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

/**
 * One workflow per dispatch batch: the events one claim of the outbox dispatcher took,
 * with every delivery they fan out to. Started with REJECT_DUPLICATE: a second dispatch
 * of the same batch (a dispatcher restart) never starts a second fan-out.
 */
export const webhookBatchWorkflowId = (batchId: string) => `webhook-batch/${batchId}`;
/** One workflow per manual delivery (redelivery, test send) of one `evt_…` delivery. */
export const webhookDeliveryWorkflowId = (deliveryId: string) => `webhook-delivery/${deliveryId}`;

export interface WebhookBatchInput {
  batchId: string;
  /** the pending deliveries (one per event and subscribed endpoint) committed for the batch */
  deliveryIds: string[];
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** 'schedule' (default): up to 5 attempts on the spec's schedule; 'once': one attempt (test sends) */
  mode?: 'schedule' | 'once';
  /** attempts already made (a redelivery numbers its attempts after them); default 0 */
  previousAttempts?: number;
}

export type DeliveryResult = 'succeeded' | 'failed' | 'skipped';

export interface WebhookActivities {
  /**
   * One attempt: skipped when the endpoint is paused or deleted, else POST and record it.
   * An outcome that ends the delivery (success, skip, or failure of its `last` attempt)
   * is written to the delivery row in the same call.
   */
  attemptDelivery(input: { deliveryId: string; attempt: number; scheduledAt: string; last: boolean }): Promise<DeliveryResult>;
}
