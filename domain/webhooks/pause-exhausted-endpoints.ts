// The 'pause-endpoint' rule of a schedule (the platform spec: "After 5 failed attempts the
// webhook is paused and an email notification is sent"), after deliveries' last failure:
// each of their endpoints is paused once and the people its API names are emailed.
import type { Db } from '../../db/db';
import { endpointsOfDeliveries, lastAttemptsOf } from '../../db/repositories/webhook-deliveries';
import { lockActiveEndpoint, pauseEndpoint } from '../../db/repositories/webhook-endpoints';
import { hasEmailProvider, sendAccepted } from '../../lib/email/send-accepted';
import type { EmailChain } from '../../lib/email/types';
import { webhookApi, type WebhookApis } from './apis';
import { PAUSE_EMAIL_DELIVERIES, pauseEmail } from './pause-email';

/** The value of `paused_reason` when the schedule ran out (a PATCH writes 'manual'). */
export const PAUSED_AFTER_FAILURES = 'delivery_failed';

export interface PauseDeps {
  /** the email chain (lib/email/chain.ts); with no provider configured endpoints are paused without email */
  mailer: EmailChain;
  /** the API rows that name each endpoint's pause recipients (default WEBHOOK_APIS) */
  apis?: WebhookApis;
}

/** Pauses the endpoint of each delivery that ran out; answers the endpoints it paused. */
export async function pauseExhaustedEndpoints(db: Db, deps: PauseDeps, deliveryIds: string[]): Promise<string[]> {
  const paused: string[] = [];
  for (const endpointId of await endpointsOfDeliveries(db, deliveryIds)) {
    if (await pauseOne(db, deps, endpointId, deliveryIds)) paused.push(endpointId);
  }
  return paused;
}

/**
 * Pauses one endpoint and emails its API's recipients, once. The row stays locked while
 * the email goes out and the pause commits only after a provider accepted it: a provider
 * failure rolls back and the activity's retry does both again, and deliveries to the same
 * endpoint that ran out together (or a later retry) find it paused and send nothing.
 */
async function pauseOne(db: Db, deps: PauseDeps, endpointId: string, deliveryIds: string[]): Promise<boolean> {
  return db.transaction(async (m) => {
    const endpoint = await lockActiveEndpoint(m, endpointId);
    if (!endpoint) return false; // paused by hand or by an earlier delivery, or deleted: nothing to do
    const to = await webhookApi(endpoint.api, deps.apis).pauseRecipients(m, endpoint.workspaceId);
    if (to.length && hasEmailProvider(deps.mailer)) {
      const failed = await lastAttemptsOf(m, endpoint.id, deliveryIds, PAUSE_EMAIL_DELIVERIES);
      await sendAccepted(deps.mailer, pauseEmail(endpoint, to, failed));
    }
    await pauseEndpoint(m, endpointId, PAUSED_AFTER_FAILURES);
    return true;
  });
}
