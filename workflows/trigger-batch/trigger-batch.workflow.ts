import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import { PAGE_MAX_ATTEMPTS, PUSH_PAGE_SIZE } from '../push-send/push-send.logic';
import type { TriggerBatchCounts, TriggerBatchInput, TriggerBatchWorkflowActivities } from './contract';

// Every step is a local activity: a batch is at most one page (500 firings) per app, so
// each step is short, and a local activity costs no task-queue round trip through the
// server. A delay-0 batch is one workflow task from start to end: at a few hundred
// firings a second, the server's work per batch, shared by its firings, is what keeps
// the path to the device short. A worker that dies mid-step fails the workflow task; the
// retry runs the step again, and every step is idempotent (the firings store their
// send; the page pushes only rows still `queued`).

// The send workflow's page activity, under its own retry policy: it retries transient
// transport failures by throwing and, on its last attempt, records what is left as
// failed, so a batch always ends.
const push = proxyLocalActivities<TriggerBatchWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: PAGE_MAX_ATTEMPTS },
});

// One short transaction each; retried until the database answers (a batch is never given up).
const local = proxyLocalActivities<TriggerBatchWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Pushes every page of one send (a batch's send is one page; more would be pushed too). */
async function pushAll(sendId: string): Promise<void> {
  let afterPosition = -1;
  for (;;) {
    const page = await push.sendPushPage({ sendId, afterPosition, limit: PUSH_PAGE_SIZE });
    if (!page.more || page.lastPosition === null) break;
    afterPosition = page.lastPosition;
  }
  await local.finishPushSend({ sendId });
}

/**
 * `trigger-batch/<batchId>`: waits until the batch is due (a durable timer; none when
 * its firings are due at once), then creates its sends (a firing whose trigger was
 * disabled or deleted, or whose device went away, is recorded skipped and sends
 * nothing), pushes them through the send workflow's activities (one call per app: FCM
 * and APNs in parallel) and records each firing's outcome.
 */
export async function triggerBatchWorkflow(input: TriggerBatchInput): Promise<TriggerBatchCounts> {
  const wait = input.sendAtMs - Date.now();
  if (input.sendAtMs && wait > 0) await sleep(wait);
  const { sendIds } = await local.startTriggerBatch({ batchId: input.batchId });
  await Promise.all(sendIds.map(pushAll));
  return local.finishTriggerBatch({ batchId: input.batchId });
}
