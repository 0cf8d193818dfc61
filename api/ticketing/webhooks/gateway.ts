// Between the webhook routes and the domain (domain/webhooks/): the commands run with
// this API's dependencies and data (the ticketing API, its endpoint limit), and the one
// start in a request: redelivery and the test sender start the one-delivery workflow,
// which owns the attempts. The domain command prepares the delivery and says how to undo
// it; the Temporal start stays here. Only the contract is imported, never the workflow.
import type { WorkflowHandle } from '@temporalio/client';
import { changeEndpoint } from '../../../domain/webhooks/change-endpoint';
import { claimRedelivery } from '../../../domain/webhooks/claim-redelivery';
import { createTestDelivery } from '../../../domain/webhooks/create-test-delivery';
import type { ManualDelivery, PreparedDelivery } from '../../../domain/webhooks/manual-delivery';
import { webhookRefusals } from '../../../domain/webhooks/errors';
import { registerEndpoint } from '../../../domain/webhooks/register-endpoint';
import { removeEndpoint } from '../../../domain/webhooks/remove-endpoint';
import type { EndpointChange, EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { masterKey } from '../../../lib/crypto/master-key';
import { startOnce } from '../../../lib/temporal/start-once';
import type { UrlPolicyOptions } from '../../../lib/webhooks/url-policy';
import {
  WEBHOOK_DELIVERY_WORKFLOW_TYPE,
  WEBHOOKS_QUEUE,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
} from '../../../workflows/webhook-delivery/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { attemptsOf, findDelivery } from './deliveries';
import { presentDelivery } from './presenters';
import { sampleEventData } from './samples';
import { MAX_ENDPOINTS_PER_WORKSPACE, type WebhookDelivery, type WebhookEventType } from './schema';

/** One receiver attempt may take 30 s (spec time-out); the sender waits a little longer. */
export const TEST_SEND_WAIT_MS = 35_000;

/** The URL policy of this deployment: loopback only for end-to-end tests, the injectable resolver. */
const urlPolicy = (deps: AppDeps): UrlPolicyOptions => ({ allowLoopback: deps.config.webhookAllowLoopback, resolve: deps.resolveHost });

/** A new endpoint of the ticketing API, with its signing secret (shown once). */
export function createEndpoint(
  deps: AppDeps,
  body: { workspaceId: string; url: string; events: string[]; description: string; active: boolean },
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  return registerEndpoint(
    deps.db,
    { secretKey: masterKey(deps.config), urlPolicy: urlPolicy(deps) },
    { ...body, api: 'ticketing', maxPerWorkspace: MAX_ENDPOINTS_PER_WORKSPACE },
  );
}

export const patchEndpoint = (deps: AppDeps, endpointId: string, change: EndpointChange) =>
  changeEndpoint(deps.db, { urlPolicy: urlPolicy(deps) }, endpointId, change);

export const deleteEndpoint = (deps: AppDeps, endpointId: string) => removeEndpoint(deps.db, endpointId);

type Started = { ok: true; handle: WorkflowHandle } | { ok: false; reason: 'running' | 'unavailable' };

async function startDelivery(deps: AppDeps, manual: ManualDelivery): Promise<Started> {
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
async function startPrepared(deps: AppDeps, prepared: PreparedDelivery): Promise<Started> {
  const started = await startDelivery(deps, prepared.start);
  if (!started.ok) await prepared.undo();
  return started;
}

async function current(deps: AppDeps, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const row = await findDelivery(deps.db, endpointId, deliveryId);
  if (!row) throw webhookRefusals.deliveryNotFound(deliveryId);
  return presentDelivery(row, (await attemptsOf(deps.db, [row.id])).get(row.id) ?? []);
}

/**
 * Sends a finished delivery again on the endpoint's API's full retry schedule, keeping its
 * evt_ id (the receiver's deduplication key); attempt numbers continue after the ones already made.
 */
export async function redeliver(deps: AppDeps, endpoint: EndpointRecord, deliveryId: string): Promise<WebhookDelivery> {
  const started = await startPrepared(deps, await claimRedelivery(deps.db, endpoint, deliveryId));
  if (!started.ok) {
    if (started.reason === 'running') throw webhookRefusals.deliveryInProgress(deliveryId);
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
  const now = new Date();
  const prepared = await createTestDelivery(deps.db, endpoint, { type, data: sampleEventData(type, endpoint.workspaceId, now), occurredAt: now });
  const started = await startPrepared(deps, prepared);
  if (!started.ok) throw errors.unavailable('The test event could not be sent; retry later');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A failed or unreachable result is read from the row below, like any other outcome.
    started.handle.result().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, TEST_SEND_WAIT_MS))),
  ]);
  clearTimeout(timer);
  const delivery = await current(deps, endpoint.id, prepared.start.deliveryId);
  return { done: delivery.status !== 'pending', delivery };
}
