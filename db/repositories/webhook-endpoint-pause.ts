// SQL of the 'pause-endpoint' step (activities/webhooks/pause.ts): lock an active endpoint,
// read what the email names, and pause it.
import type { Queryable } from '../db';

export interface PausableEndpoint {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
}

export interface ExhaustedDelivery {
  id: string;
  event_type: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  error: string | null;
}

/** The distinct endpoints these deliveries go to. */
export async function endpointsOfDeliveries(q: Queryable, deliveryIds: string[]): Promise<string[]> {
  const { rows } = await q.query<{ endpoint_id: string }>(
    'SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE id = ANY($1::text[]) ORDER BY endpoint_id',
    [deliveryIds],
  );
  return rows.map((r) => r.endpoint_id);
}

/** The endpoint, locked until the transaction ends, if it is active and not deleted. */
export async function lockActiveEndpoint(q: Queryable, endpointId: string): Promise<PausableEndpoint | null> {
  const { rows } = await q.query<PausableEndpoint>(
    `SELECT id, workspace_id, url, description FROM webhook_endpoints
      WHERE id = $1 AND active AND deleted_at IS NULL FOR UPDATE`,
    [endpointId],
  );
  return rows[0] ?? null;
}

/** Those of `deliveryIds` that go to `endpointId`, each with its last attempt (at most `limit`). */
export async function lastAttemptsOf(q: Queryable, endpointId: string, deliveryIds: string[], limit: number): Promise<ExhaustedDelivery[]> {
  const { rows } = await q.query<ExhaustedDelivery>(
    `SELECT d.id, d.event_type, a.attempt, a.started_at, a.status_code, a.error
       FROM webhook_deliveries d
       JOIN LATERAL (SELECT * FROM webhook_attempts WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1) a ON true
      WHERE d.id = ANY($1::text[]) AND d.endpoint_id = $2 ORDER BY d.id LIMIT $3`,
    [deliveryIds, endpointId, limit],
  );
  return rows;
}

export async function pauseEndpoint(q: Queryable, endpointId: string, reason: string): Promise<void> {
  await q.query(`UPDATE webhook_endpoints SET active = false, paused_at = now(), paused_reason = $2, updated_at = now() WHERE id = $1`, [
    endpointId,
    reason,
  ]);
}

/** The workspace's agents that have an email address: who hears that an endpoint was paused. */
export async function agentEmails(q: Queryable, workspaceId: string): Promise<string[]> {
  const { rows } = await q.query<{ email: string }>(
    `SELECT DISTINCT email FROM agents WHERE workspace_id = $1 AND email IS NOT NULL AND email <> '' ORDER BY email`,
    [workspaceId],
  );
  return rows.map((r) => r.email);
}
