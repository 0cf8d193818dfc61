// What callers know about a trigger batch's workflow (docs/push.md, "Event triggers"):
// POST /event-triggers/fire writes the firings; the push worker's firing dispatcher
// (workers/firing-dispatcher.ts) claims committed firings into batches of firings due
// together and starts `trigger-batch/<batchId>` on the `push` queue. The input is the
// batch's id and when it is due (a number): the firings, their text, devices and tokens
// stay in Postgres, the activities read them there.
import type { FiringOutcome, FiringStatus, TriggerBatchCounts } from '../../domain/push/types';
import type { PushSendActivities } from '../push-send/contract';

export { PUSH_QUEUE } from '../push-send/contract';
export type { FiringOutcome, FiringStatus, TriggerBatchCounts };

export const TRIGGER_BATCH_WORKFLOW_TYPE = 'triggerBatchWorkflow';

/** One workflow per batch (startOnce): a batch, and so each of its firings, is sent at most once. */
export const triggerBatchWorkflowId = (batchId: string) => `trigger-batch/${batchId}`;

export interface TriggerBatchInput {
  batchId: string;
  /**
   * When the batch is due (epoch ms): the latest due time (fire time plus delay) of its
   * firings, all due within one second, so the delay counts from the fire even when the
   * workflow starts late (Temporal was down). At or before the workflow's start: no
   * timer. 0: every firing is due at once (delay 0), whatever the clocks of the API and
   * the Temporal server say.
   */
  sendAtMs: number;
}

export interface TriggerBatchActivities {
  /**
   * When the batch is due, in one transaction: every firing whose trigger still exists
   * and is enabled and whose device is active gets a notification with its own text, in
   * ONE send per app of the batch; the others record why not (skipped_*). Answers the
   * sends (none: nothing to push, or the app was deleted). A repeat answers the sends
   * made before.
   */
  startTriggerBatch(input: { batchId: string }): Promise<{ sendIds: string[] }>;
  /** After the pushes: every firing sent records `sent` or `failed` as its notification was; the batch's counts. */
  finishTriggerBatch(input: { batchId: string }): Promise<TriggerBatchCounts>;
}

/** The activities the batch workflow calls: its own and the send workflow's (reused, not copied). */
export type TriggerBatchWorkflowActivities = TriggerBatchActivities & PushSendActivities;
