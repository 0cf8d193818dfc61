// What callers know about webhook deliveries: workflow ids, inputs, queue and activity types.
// The records they share with the rest of webhook code live in domain/webhooks/types.ts.
import type { DeliveryResult, RetrySchedule } from '../../domain/webhooks/types';

export type { DeliveryResult, RetrySchedule };

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
  /**
   * Always pass one. Absent only in batches started before the schedule was an input:
   * they keep the ticketing schedule and run as they were recorded (one coroutine per
   * delivery, no rounds), so their histories replay.
   */
  schedule?: RetrySchedule;
  /**
   * Set by the batch itself when it continues as new after a round with failures: the
   * round to run (its `deliveryIds` are the ones still failing) and the tally so far.
   */
  round?: BatchRound;
  /**
   * Set by every dispatch since 2026-11-27 (and kept by continue-as-new): each round's
   * attempts run in one local activity (attemptDeliveries). Absent in batches started before:
   * one local activity per delivery, as their histories recorded.
   */
  roundInOneActivity?: boolean;
}

export interface BatchRound {
  /** the attempt number of this round (2 to the schedule's length) */
  attempt: number;
  /** when attempt 1 was planned (epoch ms): every later attempt's time follows from it */
  firstAttemptAt: number;
  tally: BatchTally;
}

/** How a batch's deliveries ended. */
export interface BatchTally {
  succeeded: number;
  failed: number;
  skipped: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** 'schedule' (default): every attempt of the schedule; 'once': one attempt (test sends) */
  mode?: 'schedule' | 'once';
  /** attempts already made (a redelivery numbers its attempts after them); default 0 */
  previousAttempts?: number;
  /** absent only in deliveries started before the schedule was an input: the ticketing schedule */
  schedule?: RetrySchedule;
}

export interface WebhookActivities {
  /**
   * One attempt: skipped when the endpoint is paused or deleted, else POST and record it.
   * An outcome that ends the delivery (success, skip, or failure of its `last` attempt)
   * is written to the delivery row in the same call.
   */
  attemptDelivery(input: { deliveryId: string; attempt: number; scheduledAt: string; last: boolean }): Promise<DeliveryResult>;
  /** attemptDelivery for each of a round's deliveries (same attempt, plan and `last`): the outcomes in their order */
  attemptDeliveries(input: { deliveryIds: string[]; attempt: number; scheduledAt: string; last: boolean }): Promise<DeliveryResult[]>;
}

/** The 'pause-endpoint' step after the last failed attempt (a regular activity: it emails). */
export interface WebhookExhaustedActivities {
  /**
   * Pauses the endpoint of each delivery (once per endpoint, whichever of its deliveries
   * comes first) and emails the endpoint's workspace about it. Returns the endpoints it paused.
   */
  pauseExhaustedEndpoints(input: { deliveryIds: string[] }): Promise<string[]>;
}
