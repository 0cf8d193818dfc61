// Redelivery: a finished delivery is sent again on its API's full retry schedule, keeping
// its evt_ id (the receiver's deduplication key); attempt numbers continue after the ones
// already made. The row is claimed (pending again) atomically: of two concurrent
// redeliveries one claims it and the other is told it is in progress. An endpoint in test
// mode takes redeliveries of synthetic (test sender) deliveries only (docs/webhooks.md, "Test mode").
import type { Db } from '../../db/db';
import { claimForRedelivery, unclaim } from '../../db/repositories/webhook-deliveries';
import { webhookApi, type WebhookApis } from './apis';
import { assertSendable } from './sendable';
import type { PreparedDelivery, SendableEndpoint } from './manual-delivery';
import { webhookRefusals } from './errors';

export async function claimRedelivery(
  db: Db,
  endpoint: SendableEndpoint,
  deliveryId: string,
  apis?: WebhookApis,
): Promise<PreparedDelivery> {
  assertSendable(endpoint);
  // in test mode only synthetic events go out: a real one would be withheld at its attempt anyway
  const claimed = await claimForRedelivery(db, endpoint.id, deliveryId, { syntheticOnly: endpoint.testMode === true });
  if (claimed === 'missing') throw webhookRefusals.deliveryNotFound(deliveryId);
  if (claimed === 'real') throw webhookRefusals.webhookTestMode(endpoint.id, deliveryId);
  if (claimed === 'pending') throw webhookRefusals.deliveryInProgress(deliveryId);
  return {
    start: { deliveryId, mode: 'schedule', previousAttempts: claimed.attempts, schedule: webhookApi(endpoint.api, apis).schedule },
    undo: () => unclaim(db, deliveryId, claimed.previous),
  };
}
