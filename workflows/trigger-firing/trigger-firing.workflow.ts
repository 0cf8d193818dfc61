import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import { PAGE_MAX_ATTEMPTS } from '../push-send/push-send.logic';
import type { TriggerFiringInput, TriggerFiringOutcome, TriggerFiringWorkflowActivities } from './contract';

// Every step is a local activity: a firing is one device, so each step is short, and a
// local activity costs no task-queue round trip through the server. A delay-0 firing is
// one workflow task from start to end (at a few hundred firings a second, the server's
// work per firing is what the path to the device is made of). A worker that dies
// mid-step fails the workflow task; the retry runs the step again, and every step is
// idempotent (the firing stores its send; the page pushes only rows still `queued`).

// The send workflow's page activity, under its own retry policy: it retries transient
// transport failures by throwing and, on its last attempt, records what is left as
// failed, so a firing always ends.
const push = proxyLocalActivities<TriggerFiringWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: PAGE_MAX_ATTEMPTS },
});

// One short transaction each; retried until the database answers (a firing is never given up).
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
  // independent rows (the send, the firing): one round of the workflow, not two
  const [, settled] = await Promise.all([local.finishPushSend({ sendId }), local.finishTriggerFiring({ firingId: input.firingId, sendId })]);
  return settled;
}
