// What callers know about webhook deliveries: workflow ids, inputs, queue and activity types.
export const WEBHOOKS_QUEUE = 'webhooks';
export const WEBHOOK_EVENT_WORKFLOW_TYPE = 'webhookEventWorkflow';
export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

/**
 * One workflow per outbox event, fanning out to every endpoint subscribed when the event
 * was dispatched. Started with REJECT_DUPLICATE: a second dispatch of the same event
 * (a dispatcher restart) never starts a second fan-out.
 */
export const webhookEventWorkflowId = (eventId: string) => `webhook-event/${eventId}`;
/** One workflow per manual delivery (redelivery, test send) of one `evt_…` delivery. */
export const webhookDeliveryWorkflowId = (deliveryId: string) => `webhook-delivery/${deliveryId}`;

export interface WebhookEventInput {
  eventId: string;
  /** the deliveries (one per subscribed endpoint) the dispatcher created for the event */
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
export type AttemptOutcome = 'succeeded' | 'failed' | 'skipped';

export interface WebhookActivities {
  /** one attempt: skipped when the endpoint is paused or deleted, else POST and record it */
  attemptDelivery(input: { deliveryId: string; attempt: number; scheduledAt: string }): Promise<AttemptOutcome>;
  finishDelivery(input: { deliveryId: string; status: DeliveryResult; at: string }): Promise<void>;
}
