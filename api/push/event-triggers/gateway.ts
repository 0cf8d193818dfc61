// The layer between the event-trigger routes and the domain: a fire is domain/push/
// fire-event.ts's fireEvent with each firing's workflow, `trigger-firing/<firingId>` on
// the `push` queue, as its outbox entry. The answer does not wait for Temporal: the push
// worker's start dispatcher starts the workflows once the firings have committed.
import { fireEvent } from '../../../domain/push/fire-event';
import type { OutboxStart } from '../../../db/repositories/workflow-starts';
import {
  PUSH_QUEUE,
  TRIGGER_FIRING_WORKFLOW_TYPE,
  triggerFiringWorkflowId,
  type TriggerFiringInput,
} from '../../../workflows/trigger-firing/contract';
import type { AppDeps } from '../../deps';
import type { IdempotencyState } from '../../kit/idempotency';
import type { FireEventBody } from './schema';

export async function fireTriggerEvent(deps: AppDeps, appId: string, body: FireEventBody, idem?: IdempotencyState): Promise<{ triggersMatched: number }> {
  return fireEvent(deps.db, { appId, deviceId: body.deviceId, eventName: body.eventName, properties: body.properties }, { workflowOf: triggerFiringStart, idempotency: idem });
}

/**
 * A firing's entry in the workflow-start outbox: its id and due time only. Delay 0 is
 * "at once" (sendAtMs 0), not a time: this process's clock a little ahead of the
 * Temporal server's must not hold the push back.
 */
export function triggerFiringStart(f: { firingId: string; sendAt: Date; delayMinutes: number }): OutboxStart {
  const input: TriggerFiringInput = { firingId: f.firingId, sendAtMs: f.delayMinutes === 0 ? 0 : f.sendAt.getTime() };
  return { workflowId: triggerFiringWorkflowId(f.firingId), workflowType: TRIGGER_FIRING_WORKFLOW_TYPE, taskQueue: PUSH_QUEUE, args: [input] };
}
