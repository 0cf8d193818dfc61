// The 'pause-endpoint' step of a schedule (the platform spec: "After 5 failed attempts the
// webhook is paused and an email notification is sent"), after a delivery's last failure.
import type { Db, Queryable } from '../../db/db';
import type { Mailer } from '../tickets/notify';
import type { WebhookExhaustedActivities } from '../../workflows/webhook-delivery/contract';

export interface PauseActivityDeps {
  db: Db;
  /** nodemailer transport (null: pause without email, e.g. no SMTP configured) and sender */
  mailer: Mailer;
}

/** The value of `paused_reason` when the schedule ran out (a PATCH writes 'manual'). */
export const PAUSED_AFTER_FAILURES = 'delivery_failed';

interface LockedEndpoint {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
}

interface FailedDelivery {
  id: string;
  event_type: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  error: string | null;
}

export function createPauseActivities(deps: PauseActivityDeps): WebhookExhaustedActivities {
  return {
    async pauseExhaustedEndpoints({ deliveryIds }) {
      const { rows } = await deps.db.query<{ endpoint_id: string }>(
        'SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE id = ANY($1::text[]) ORDER BY endpoint_id',
        [deliveryIds],
      );
      const paused: string[] = [];
      for (const { endpoint_id } of rows) {
        if (await pauseOne(deps, endpoint_id, deliveryIds)) paused.push(endpoint_id);
      }
      return paused;
    },
  };
}

/**
 * Pauses one endpoint and emails its workspace, once. The row stays locked while the
 * email goes out and the pause commits only after the SMTP server took it: a failure
 * rolls back and the activity's retry does both again, and deliveries to the same
 * endpoint that ran out together (or a later retry) find it paused and send nothing.
 */
async function pauseOne(deps: PauseActivityDeps, endpointId: string, deliveryIds: string[]): Promise<boolean> {
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<LockedEndpoint>(
      `SELECT id, workspace_id, url, description FROM webhook_endpoints
        WHERE id = $1 AND active AND deleted_at IS NULL FOR UPDATE`,
      [endpointId],
    );
    const endpoint = rows[0];
    if (!endpoint) return false; // paused by hand or by an earlier delivery, or deleted: nothing to do
    await notify(q, deps.mailer, endpoint, deliveryIds);
    await q.query(
      `UPDATE webhook_endpoints SET active = false, paused_at = now(), paused_reason = $2, updated_at = now() WHERE id = $1`,
      [endpointId, PAUSED_AFTER_FAILURES],
    );
    return true;
  });
}

/**
 * Who hears about it: the workspace's agents that have an email address (the people who
 * run its support desk). One message, every recipient on it.
 */
async function recipients(q: Queryable, workspaceId: string): Promise<string[]> {
  const { rows } = await q.query<{ email: string }>(
    `SELECT DISTINCT email FROM agents WHERE workspace_id = $1 AND email IS NOT NULL AND email <> '' ORDER BY email`,
    [workspaceId],
  );
  return rows.map((r) => r.email);
}

async function notify(q: Queryable, mailer: Mailer, endpoint: LockedEndpoint, deliveryIds: string[]): Promise<void> {
  const to = await recipients(q, endpoint.workspace_id);
  if (!mailer.transport || !to.length) return;
  const { rows: failed } = await q.query<FailedDelivery>(
    `SELECT d.id, d.event_type, a.attempt, a.started_at, a.status_code, a.error
       FROM webhook_deliveries d
       JOIN LATERAL (SELECT * FROM webhook_attempts WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1) a ON true
      WHERE d.id = ANY($1::text[]) AND d.endpoint_id = $2 ORDER BY d.id LIMIT 20`,
    [deliveryIds, endpoint.id],
  );
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
