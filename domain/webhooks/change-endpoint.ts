// Changing an endpoint's url, events, description or active (pause/resume). Deliveries
// still retrying read url and active at each attempt, so they follow the change.
import type { Executor } from '../../db/db';
import { updateEndpoint, type EndpointChange, type EndpointRecord } from '../../db/repositories/webhook-endpoints';
import { acceptedEndpointUrl, type UrlPolicyOptions } from './endpoint-url';
import { webhookRefusals } from './errors';

/** The endpoint as changed; a new URL goes through the URL policy as on registration. */
export async function changeEndpoint(
  executor: Executor,
  deps: { urlPolicy: UrlPolicyOptions },
  endpointId: string,
  change: EndpointChange,
): Promise<EndpointRecord> {
  const url = change.url === undefined ? undefined : await acceptedEndpointUrl(change.url, deps.urlPolicy);
  const row = await updateEndpoint(executor, endpointId, { ...change, url });
  if (!row) throw webhookRefusals.webhookNotFound(endpointId); // deleted meanwhile
  return row;
}
