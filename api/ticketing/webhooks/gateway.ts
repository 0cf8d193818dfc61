// Between the webhook routes and the domain (domain/webhooks/): the commands run with
// this API's dependencies and data (the ticketing API, its endpoint limit), and the one
// start in a request: redelivery and the test sender start the one-delivery workflow,
// which owns the attempts. The domain command prepares the delivery and says how to undo
// it; the Temporal start is the kit's (api/kit/manual-delivery.ts), shared with the platform API.
import { changeEndpoint } from '../../../domain/webhooks/change-endpoint';
import { claimRedelivery } from '../../../domain/webhooks/claim-redelivery';
import { createTestDelivery } from '../../../domain/webhooks/create-test-delivery';
import { webhookRefusals } from '../../../domain/webhooks/errors';
import { registerEndpoint } from '../../../domain/webhooks/register-endpoint';
import { removeEndpoint } from '../../../domain/webhooks/remove-endpoint';
import { rotateSecret } from '../../../domain/webhooks/rotate-secret';
import type { EndpointChange, EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { masterKey } from '../../../lib/crypto/master-key';
import type { UrlPolicyOptions } from '../../../lib/webhooks/url-policy';
import { nowOf, type AppDeps } from '../../deps';
import { startPreparedDelivery } from '../../kit/manual-delivery';
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
  body: { workspaceId: string; url: string; events: string[]; description: string; active: boolean; testMode: boolean },
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

/** A new signing secret (shown once); the replaced one is signed with beside it for 24 h. */
export const rotateEndpointSecret = (deps: AppDeps, endpointId: string) =>
  rotateSecret(deps.db, { secretKey: masterKey(deps.config) }, endpointId, nowOf(deps));

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
  const started = await startPreparedDelivery(deps, await claimRedelivery(deps.db, endpoint, deliveryId));
  if (!started.ok) {
    if (started.reason === 'running') throw webhookRefusals.deliveryInProgress(deliveryId);
    throw errors.unavailable('The redelivery could not be started; nothing was changed, retry later');
  }
  return current(deps, endpoint.id, deliveryId);
}

/**
 * The spec's on-demand test-event sender: a synthetic delivery of sample data for each of
 * `types` (one, or every subscribed type), signed like any other, one attempt each and no
 * retries, sent at once. Sent whether or not the endpoint is in test mode. Waits for those
 * attempts together (`done` false when one outlasted TEST_SEND_WAIT_MS; it still finishes
 * and shows in the log). A start that fails is a 503; the test events started before it
 * still go out.
 */
export async function sendTests(
  deps: AppDeps,
  endpoint: EndpointRecord,
  types: readonly WebhookEventType[],
): Promise<{ done: boolean; deliveries: WebhookDelivery[] }> {
  const now = new Date();
  const sends = await Promise.all(
    types.map(async (type) => {
      const prepared = await createTestDelivery(deps.db, endpoint, { type, data: sampleEventData(type, endpoint.workspaceId, now), occurredAt: now });
      return { deliveryId: prepared.start.deliveryId, started: await startPreparedDelivery(deps, prepared) };
    }),
  );
  if (sends.some((x) => !x.started.ok)) throw errors.unavailable('A test event could not be sent; retry later');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A failed or unreachable result is read from the rows below, like any other outcome.
    Promise.all(sends.map((x) => (x.started.ok ? x.started.handle.result().catch(() => undefined) : undefined))),
    new Promise((resolve) => (timer = setTimeout(resolve, TEST_SEND_WAIT_MS))),
  ]);
  clearTimeout(timer);
  const deliveries = await Promise.all(sends.map((x) => current(deps, endpoint.id, x.deliveryId)));
  return { done: deliveries.every((d) => d.status !== 'pending'), deliveries };
}
