// The 'pause-endpoint' step of a schedule (the platform spec: "After 5 failed attempts the
// webhook is paused and an email notification is sent"), after a delivery's last failure.
import type { Db, Executor } from '../../db/db';
import { agentEmails } from '../../db/repositories/agents';
import { endpointsOfDeliveries, lastAttemptsOf } from '../../db/repositories/webhook-deliveries';
import { lockActiveEndpoint, pauseEndpoint, type PausableEndpoint } from '../../db/repositories/webhook-endpoints';
import type { WebhookExhaustedActivities } from '../../workflows/webhook-delivery/contract';
import { withDomainFailures } from '../failures';
import type { Mailer } from '../tickets/notify';

export interface PauseActivityDeps {
  db: Db;
  /** nodemailer transport (null: pause without email, e.g. no SMTP configured) and sender */
  mailer: Mailer;
}

/** The value of `paused_reason` when the schedule ran out (a PATCH writes 'manual'). */
export const PAUSED_AFTER_FAILURES = 'delivery_failed';

export function createPauseActivities(deps: PauseActivityDeps): WebhookExhaustedActivities {
  return withDomainFailures({
    async pauseExhaustedEndpoints({ deliveryIds }) {
      const paused: string[] = [];
      for (const endpointId of await endpointsOfDeliveries(deps.db, deliveryIds)) {
        if (await pauseOne(deps, endpointId, deliveryIds)) paused.push(endpointId);
      }
      return paused;
    },
  });
}

/**
 * Pauses one endpoint and emails its workspace, once. The row stays locked while the
 * email goes out and the pause commits only after the SMTP server took it: a failure
 * rolls back and the activity's retry does both again, and deliveries to the same
 * endpoint that ran out together (or a later retry) find it paused and send nothing.
 */
async function pauseOne(deps: PauseActivityDeps, endpointId: string, deliveryIds: string[]): Promise<boolean> {
  return deps.db.transaction(async (m) => {
    const endpoint = await lockActiveEndpoint(m, endpointId);
    if (!endpoint) return false; // paused by hand or by an earlier delivery, or deleted: nothing to do
    await notify(m, deps.mailer, endpoint, deliveryIds);
    await pauseEndpoint(m, endpointId, PAUSED_AFTER_FAILURES);
    return true;
  });
}

/** One message to the workspace's agents that have an email address (who run its desk). */
async function notify(m: Executor, mailer: Mailer, endpoint: PausableEndpoint, deliveryIds: string[]): Promise<void> {
  const to = await agentEmails(m, endpoint.workspaceId);
  if (!mailer.transport || !to.length) return;
  const failed = await lastAttemptsOf(m, endpoint.id, deliveryIds, 20);
  const lines = failed.map(
    (d) => `- ${d.id} (${d.event_type}): attempt ${d.attempt} at ${d.started_at.toISOString()}: ${d.error ?? `status ${d.status_code}`}`,
  );
  await mailer.transport.sendMail({
    from: mailer.from,
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
    headers: { 'X-Webhook-Endpoint-Id': endpoint.id },
  });
}
