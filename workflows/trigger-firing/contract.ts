// What callers know about a trigger firing's workflow (docs/push.md, "Event triggers"):
// POST /event-triggers/fire writes one push_trigger_firings row per matched trigger and
// its `trigger-firing/<firingId>` entry in the workflow-start outbox in one transaction;
// the push worker's start dispatcher starts it on the `push` queue. The input is the
// firing's id and when it is due (a number): the rendered text, the device and its token
// stay in Postgres, the activities read them there.
import type { FiringOutcome, FiringStatus } from '../../domain/push/types';
import type { PushSendActivities } from '../push-send/contract';

export { PUSH_QUEUE } from '../push-send/contract';
export type { FiringOutcome, FiringStatus };

export const TRIGGER_FIRING_WORKFLOW_TYPE = 'triggerFiringWorkflow';

/** One workflow per firing: a firing is sent at most once. */
export const triggerFiringWorkflowId = (firingId: string) => `trigger-firing/${firingId}`;

export interface TriggerFiringInput {
  firingId: string;
  /**
   * When the push is due (epoch ms: the fire's time plus the trigger's delay), so the
   * delay counts from the fire even when the workflow starts late (Temporal was down).
   * At or before the workflow's start: no timer. Delay 0 is 0 (at once, whatever the
   * clocks of the API and the Temporal server say).
   */
  sendAtMs: number;
}

/** What became of the firing; `gone`: its app was deleted (the firing went with it). */
export type TriggerFiringOutcome = FiringOutcome;

export interface TriggerFiringActivities {
  /**
   * When the firing is due: if its trigger still exists and is enabled and the device is
   * active, creates its send (one push_notifications row) and answers its id; otherwise
   * records why not (skipped_*) and answers no send. A repeat answers the send made
   * before, or the outcome already recorded.
   */
  startTriggerFiring(input: { firingId: string }): Promise<{ sendId: string | null; outcome: TriggerFiringOutcome }>;
  /** After the push: records the firing `sent` or `failed` as its notification was. */
  finishTriggerFiring(input: { firingId: string; sendId: string }): Promise<TriggerFiringOutcome>;
}

/** The activities the firing workflow calls: its own and the send workflow's (reused, not copied). */
export type TriggerFiringWorkflowActivities = TriggerFiringActivities & PushSendActivities;
