// The email that tells a workspace one of its endpoints was paused after a delivery to it
// failed on every attempt of its schedule. Pure: the text from the endpoint and the last
// attempts of the deliveries that ran out.
import type { ExhaustedDelivery } from '../../db/repositories/webhook-deliveries';
import type { PausableEndpoint } from '../../db/repositories/webhook-endpoints';
import type { EmailMessage } from '../../lib/email/types';

/** At most this many failed deliveries are listed in one email. */
export const PAUSE_EMAIL_DELIVERIES = 20;

export function pauseEmail(endpoint: PausableEndpoint, to: string[], failed: ExhaustedDelivery[]): EmailMessage {
  const lines = failed.map(
    (d) => `- ${d.id} (${d.event_type}): attempt ${d.attempt} at ${d.started_at.toISOString()}: ${d.error ?? `status ${d.status_code}`}`,
  );
  return {
    to,
    subject: `Webhook paused: ${endpoint.url}`,
    text: [
      `The webhook endpoint ${endpoint.id} (${endpoint.url}${endpoint.description ? `, "${endpoint.description}"` : ''}) has been paused:`,
      'a delivery to it failed on every attempt of its retry schedule. Nothing more is sent to it until it is resumed.',
      '',
      'Last failed deliveries:',
      ...lines,
      '',
      'Fix the receiver, then resume the endpoint (set it active again) and redeliver what it missed.',
    ].join('\n'),
    tag: 'webhook-paused',
    headers: { 'X-Webhook-Endpoint-Id': endpoint.id },
  };
}
