// Removing an endpoint. Soft: the delivery log keeps pointing at it, and the delivery
// activity skips deleted endpoints, so deliveries still retrying end `skipped`.
import type { Executor } from '../../db/db';
import { deleteEndpoint } from '../../db/repositories/webhook-endpoints';
import { webhookRefusals } from './errors';

export async function removeEndpoint(executor: Executor, endpointId: string): Promise<void> {
  if (!(await deleteEndpoint(executor, endpointId))) throw webhookRefusals.webhookNotFound(endpointId);
}
