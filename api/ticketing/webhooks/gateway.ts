// The API's way to send a delivery by hand: redelivery and the test-event sender both
// start the one-delivery workflow, which owns the attempts. Only the contract is
// imported, never the workflow implementation.
import type { WorkflowHandle } from '@temporalio/client';
import { envelope } from '../../../domain/webhooks/envelope';
import { newId } from '../../../lib/ids';
import { startOnce } from '../../../lib/temporal/start-once';
import { ONE_ATTEMPT, TICKETING_RETRY_SCHEDULE } from '../../../domain/webhooks/retry-schedules';
import {
  WEBHOOK_DELIVERY_WORKFLOW_TYPE,
  WEBHOOKS_QUEUE,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
} from '../../../workflows/webhook-delivery/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { attemptsOf, claimForRedelivery, deleteUnsentDelivery, findDelivery, insertSyntheticDelivery, unclaim } from './deliveries';
import { presentDelivery } from './presenters';
import type { EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { sampleEventData } from './samples';
import type { WebhookDelivery, WebhookEventType } from './schema';

/** One receiver attempt may take 30 s (spec time-out); the sender waits a little longer. */
export const TEST_SEND_WAIT_MS = 35_000;

type Started = { ok: true; handle: WorkflowHandle } | { ok: false; reason: 'running' | 'unavailable' };

async function startDelivery(deps: AppDeps, input: WebhookDeliveryInput): Promise<Started> {
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

const inProgress = (id: string) =>
  errors.conflict('delivery_in_progress', `Delivery '${id}' is still being sent; redeliver it once it has succeeded or failed`);

export function assertActive(endpoint: EndpointRecord): void {
  if (!endpoint.active) {
    throw errors.conflict('webhook_paused', `Webhook '${endpoint.id}' is paused; set active to true to send to it`);
  }
}

async function current(deps: AppDeps, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const row = await findDelivery(deps.db, endpointId, deliveryId);
  if (!row) throw errors.notFound('delivery_not_found', `No delivery '${deliveryId}' in this webhook's log`);
  return presentDelivery(row, (await attemptsOf(deps.db, [row.id])).get(row.id) ?? []);
}

/**
 * Sends a finished delivery again on the full retry schedule, keeping its evt_ id (the
 * receiver's deduplication key); attempt numbers continue after the ones already made.
 */
export async function redeliver(deps: AppDeps, endpoint: EndpointRecord, deliveryId: string): Promise<WebhookDelivery> {
  assertActive(endpoint);
  const claimed = await claimForRedelivery(deps.db, endpoint.id, deliveryId);
  if (claimed === 'missing') throw errors.notFound('delivery_not_found', `No delivery '${deliveryId}' in this webhook's log`);
  if (claimed === 'pending') throw inProgress(deliveryId);
  const started = await startDelivery(deps, { deliveryId, mode: 'schedule', previousAttempts: claimed.attempts, schedule: TICKETING_RETRY_SCHEDULE });
  if (!started.ok) {
    // Nothing will send it: put the row back as it was, so the log does not lie.
    await unclaim(deps.db, deliveryId, claimed.previous);
    if (started.reason === 'running') throw inProgress(deliveryId);
    throw errors.unavailable('The redelivery could not be started; nothing was changed, retry later');
  }
  return current(deps, endpoint.id, deliveryId);
}

/**
 * The spec's on-demand test-event sender: a synthetic delivery of sample data, signed like
 * any other, one attempt and no retries. Waits for that attempt (`done` false when it
 * outlasted TEST_SEND_WAIT_MS; it still finishes and shows in the log).
 */
export async function sendTest(
  deps: AppDeps,
  endpoint: EndpointRecord,
  type: WebhookEventType,
): Promise<{ done: boolean; delivery: WebhookDelivery }> {
  assertActive(endpoint);
  const id = newId('evt');
  const now = new Date();
  const data = sampleEventData(type, endpoint.workspaceId, now);
  const body = envelope(id, { type, workspaceId: endpoint.workspaceId, occurredAt: now, data });
  await insertSyntheticDelivery(deps.db, { id, eventId: newId('evt'), endpointId: endpoint.id, workspaceId: endpoint.workspaceId, type, body });
  const started = await startDelivery(deps, { deliveryId: id, mode: 'once', schedule: ONE_ATTEMPT });
  if (!started.ok) {
    await deleteUnsentDelivery(deps.db, id);
    throw errors.unavailable('The test event could not be sent; retry later');
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A failed or unreachable result is read from the row below, like any other outcome.
    started.handle.result().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, TEST_SEND_WAIT_MS))),
  ]);
  clearTimeout(timer);
  const delivery = await current(deps, endpoint.id, id);
  return { done: delivery.status !== 'pending', delivery };
}
