// What the commands that send one delivery by hand (redelivery, the test sender) hand to
// their caller: the input of the one-delivery workflow to start, and how to undo the
// command when that start fails, so the log does not claim a send that never happens.
// The start itself is the caller's (api/ticketing/webhooks/gateway.ts): it is Temporal.
import type { RetrySchedule } from './types';

/** The one-delivery workflow's input (workflows/webhook-delivery/contract.ts, WebhookDeliveryInput). */
export interface ManualDelivery {
  deliveryId: string;
  /** 'schedule': every attempt of the schedule; 'once': one attempt (test sends) */
  mode: 'schedule' | 'once';
  /** attempts already made (a redelivery numbers its attempts after them) */
  previousAttempts?: number;
  schedule: RetrySchedule;
}

export interface PreparedDelivery {
  start: ManualDelivery;
  /** puts the delivery row back as it was before the command; call only if nothing was started */
  undo(): Promise<void>;
}

/** What a command that sends by hand needs of an endpoint. */
export interface SendableEndpoint {
  id: string;
  workspaceId: string;
  active: boolean;
  api: string;
  /** test mode: only synthetic deliveries are sent (absent: off, as for every platform endpoint) */
  testMode?: boolean;
}
