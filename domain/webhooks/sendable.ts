import type { SendableEndpoint } from './manual-delivery';
import { webhookRefusals } from './refusals';

/** Nothing is sent by hand to a paused endpoint: it must be resumed first. */
export function assertSendable(endpoint: Pick<SendableEndpoint, 'id' | 'active'>): void {
  if (!endpoint.active) throw webhookRefusals.webhookPaused(endpoint.id);
}
