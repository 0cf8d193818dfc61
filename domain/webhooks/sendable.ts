// The rule both manual sends share: a paused endpoint gets nothing until it is resumed.
import type { SendableEndpoint } from './manual-delivery';
import { webhookRefusals } from './errors';

/** Refuses (409 webhook_paused) for a paused endpoint. */
export function assertSendable(endpoint: Pick<SendableEndpoint, 'id' | 'active'>): void {
  if (!endpoint.active) throw webhookRefusals.webhookPaused(endpoint.id);
}
