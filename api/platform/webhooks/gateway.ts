// Between the platform webhook routes and the webhook domain (domain/webhooks/): the
// same commands as /v1's (register, change, remove, rotate, redeliver) run with the
// platform API's name and endpoint limit, and the one start in a request, redelivery,
// through the kit's shared start (api/kit/manual-delivery.ts). Only the workflow's
// contract is reached, never the workflow.
import { changeEndpoint } from '../../../domain/webhooks/change-endpoint';
import { claimRedelivery } from '../../../domain/webhooks/claim-redelivery';
import { webhookRefusals } from '../../../domain/webhooks/errors';
import { registerEndpoint } from '../../../domain/webhooks/register-endpoint';
import { removeEndpoint } from '../../../domain/webhooks/remove-endpoint';
import { rotateSecret } from '../../../domain/webhooks/rotate-secret';
import { attemptsOf, findLoggedDelivery } from '../../../db/repositories/webhook-delivery-log';
import type { EndpointChange, EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { masterKey } from '../../../lib/crypto/master-key';
import type { UrlPolicyOptions } from '../../../lib/webhooks/url-policy';
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { startPreparedDelivery } from '../../kit/manual-delivery';
import { presentDelivery } from './presenters';
import { MAX_PLATFORM_ENDPOINTS_PER_WORKSPACE, type WebhookDelivery } from './schema';

/** The same URL policy as /v1: HTTPS to public addresses; loopback only with WEBHOOK_ALLOW_LOOPBACK (tests). */
const urlPolicy = (deps: AppDeps): UrlPolicyOptions => ({ allowLoopback: deps.config.webhookAllowLoopback, resolve: deps.resolveHost });

/** A new endpoint of the platform API, with its signing secret (shown once). */
export const createWebhook = (
  deps: AppDeps,
  body: { workspaceId: string; environment: 'live' | 'test'; url: string; events: string[]; description: string; active: boolean },
): Promise<{ endpoint: EndpointRecord; secret: string }> =>
  registerEndpoint(
    deps.db,
    { secretKey: masterKey(deps.config), urlPolicy: urlPolicy(deps) },
    { ...body, api: 'platform', maxPerWorkspace: MAX_PLATFORM_ENDPOINTS_PER_WORKSPACE },
  );

export const patchWebhook = (deps: AppDeps, endpointId: string, change: EndpointChange) => changeEndpoint(deps.db, { urlPolicy: urlPolicy(deps) }, endpointId, change);

export const deleteWebhook = (deps: AppDeps, endpointId: string) => removeEndpoint(deps.db, endpointId);

/** A new signing secret (shown once); the replaced one is signed with beside it for 24 h. */
export const rotateWebhookSecret = (deps: AppDeps, endpointId: string) => rotateSecret(deps.db, { secretKey: masterKey(deps.config) }, endpointId, nowOf(deps));

/**
 * Sends a finished delivery again on the platform schedule, keeping its evt_ id (the
 * receiver's deduplication key); attempt numbers continue after the ones already made.
 */
export async function redeliver(deps: AppDeps, endpoint: EndpointRecord, deliveryId: string): Promise<WebhookDelivery> {
  const started = await startPreparedDelivery(deps, await claimRedelivery(deps.db, endpoint, deliveryId));
  if (!started.ok) {
    if (started.reason === 'running') throw webhookRefusals.deliveryInProgress(deliveryId);
    throw errors.unavailable('The redelivery could not be started; nothing was changed, retry later');
  }
  const row = await findLoggedDelivery(deps.db, endpoint.id, deliveryId);
  if (!row) throw webhookRefusals.deliveryNotFound(deliveryId);
  return presentDelivery(row, (await attemptsOf(deps.db, [row.id])).get(row.id) ?? []);
}
