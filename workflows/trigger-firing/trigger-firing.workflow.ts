import { proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import { PAGE_MAX_ATTEMPTS } from '../push-send/push-send.logic';
import type { TriggerFiringInput, TriggerFiringOutcome, TriggerFiringWorkflowActivities } from './contract';

// The page push runs as the send workflow runs it (same activity, same policy): it
// heartbeats, retries transient failures and records the device's outcome itself.
const push = proxyActivities<TriggerFiringWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: PAGE_MAX_ATTEMPTS },
});

// One short transaction each: local activities cost no task-queue round trip, which keeps
// a delay-0 firing's path to the device short. Retried until the database answers (a
// firing is never given up).
const local = proxyLocalActivities<TriggerFiringWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * `trigger-firing/<firingId>`: waits until the firing is due (a durable timer; none when
 * the delay is 0), then, if its trigger still exists and is enabled, pushes its one
 * notification through the send workflow's activities and records the outcome. A trigger
 * disabled or deleted during the wait, or an app deleted, sends nothing.
 */
export async function triggerFiringWorkflow(input: TriggerFiringInput): Promise<TriggerFiringOutcome> {
  const wait = input.sendAtMs - Date.now();
  if (wait > 0) await sleep(wait);
  const { sendId, outcome } = await local.startTriggerFiring({ firingId: input.firingId });
  if (!sendId) return outcome;
  await push.sendPushPage({ sendId, afterPosition: -1, limit: 1 });
  await local.finishPushSend({ sendId });
  return local.finishTriggerFiring({ firingId: input.firingId, sendId });
}
