// The one start in a request of either API's webhooks (docs/architecture.md, "Three
// outboxes, one loop"): a redelivery or a test send runs an existing delivery again on
// the one-delivery workflow, which owns the attempts. The domain command
// (domain/webhooks/claim-redelivery.ts, create-test-delivery.ts) prepares the delivery
// and says how to undo it; the Temporal start is here, shared by the ticketing and the
// platform webhook gateways. Only the workflow's contract is imported, never the workflow.
import type { WorkflowHandle } from '@temporalio/client';
import type { ManualDelivery, PreparedDelivery } from '../../domain/webhooks/manual-delivery';
import { startOnce } from '../../lib/temporal/start-once';
import {
  WEBHOOK_DELIVERY_WORKFLOW_TYPE,
  WEBHOOKS_QUEUE,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
} from '../../workflows/webhook-delivery/contract';
import type { AppDeps } from '../deps';

export type StartedDelivery = { ok: true; handle: WorkflowHandle } | { ok: false; reason: 'running' | 'unavailable' };

async function startDelivery(deps: Pick<AppDeps, 'temporal' | 'logger'>, manual: ManualDelivery): Promise<StartedDelivery> {
  const input: WebhookDeliveryInput = manual;
  const workflowId = webhookDeliveryWorkflowId(input.deliveryId);
  let started: boolean;
  try {
    started = await startOnce(deps.temporal, WEBHOOK_DELIVERY_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: WEBHOOKS_QUEUE,
      args: [input],
      // The id is per delivery: an earlier redelivery or test send of it has finished.
      reuseClosedId: true,
    });
  } catch (err) {
    deps.logger.warn({ err, deliveryId: input.deliveryId }, 'webhook delivery workflow could not start');
    return { ok: false, reason: 'unavailable' };
  }
  // Not started: the previous run set the row's final status and is just returning, not an outage.
  return started ? { ok: true, handle: deps.temporal.workflow.getHandle(workflowId) } : { ok: false, reason: 'running' };
}

/** Starts what the command prepared; a start that fails undoes the command, so the log does not lie. */
export async function startPreparedDelivery(deps: Pick<AppDeps, 'temporal' | 'logger'>, prepared: PreparedDelivery): Promise<StartedDelivery> {
  const started = await startDelivery(deps, prepared.start);
  if (!started.ok) await prepared.undo();
  return started;
}
