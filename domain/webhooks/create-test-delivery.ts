// The on-demand test sender: a synthetic delivery of sample data in the endpoint's API's
// envelope, signed like any other, one attempt and no retries. Its event id is one no
// `events` row has, so the outbox dispatcher never picks it up.
import type { Executor } from '../../db/db';
import { deleteUnsentDelivery, insertSyntheticDelivery } from '../../db/repositories/webhook-deliveries';
import { newId } from '../../lib/ids';
import { webhookApi, type WebhookApis } from './apis';
import type { PreparedDelivery, SendableEndpoint } from './manual-delivery';
import { ONE_ATTEMPT } from './retry-schedules';
import { assertSendable } from './sendable';

export interface TestEvent {
  type: string;
  /** sample data of that type (the API's samples: ids marked as test data) */
  data: unknown;
  occurredAt: Date;
}

export async function createTestDelivery(
  executor: Executor,
  endpoint: SendableEndpoint,
  event: TestEvent,
  apis?: WebhookApis,
): Promise<PreparedDelivery> {
  assertSendable(endpoint);
  const id = newId('evt');
  const body = webhookApi(endpoint.api, apis).envelope(id, { ...event, workspaceId: endpoint.workspaceId });
  await insertSyntheticDelivery(executor, { id, eventId: newId('evt'), endpointId: endpoint.id, workspaceId: endpoint.workspaceId, type: event.type, body });
  return {
    // one attempt whatever the API's schedule: a test send never retries nor pauses
    start: { deliveryId: id, mode: 'once', schedule: ONE_ATTEMPT },
    undo: () => deleteUnsentDelivery(executor, id),
  };
}
