// The delivery log as the webhook APIs read it: an endpoint's deliveries by page (a
// cursor for /v1, an offset for the platform API), one delivery, and the attempts of each.
// The cursor needs created_at to the microsecond (a JS Date keeps milliseconds and would
// skip rows), so the page is SQL through the query API. The writes: webhook-deliveries.ts.
import { In } from 'typeorm';
import { WebhookAttempt } from '../entities';
import { managerOf, sql, type Executor } from '../db';
import { LOG_RETENTION, type DeliveryStatus } from './webhook-deliveries';

export interface DeliveryRow {
  id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  synthetic: boolean;
  body: string;
  created_at: Date;
  completed_at: Date | null;
  /** created_at in UTC with microseconds, for the cursor */
  created_key: string;
}

const COLUMNS = `id, event_type, status, attempts, synthetic, body, created_at, completed_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key`;

/** One page of an endpoint's log, newest first by (created_at, id), after `before` when given. */
export async function pageOfDeliveries(
  executor: Executor,
  endpointId: string,
  q: { status: DeliveryStatus | null; before: { at: string; id: string } | null; limit: number },
): Promise<DeliveryRow[]> {
  const where = ['endpoint_id = $1', `created_at > now() - ${LOG_RETENTION}`];
  const params: unknown[] = [endpointId];
  if (q.status) {
    params.push(q.status);
    where.push(`status = $${params.length}`);
  }
  if (q.before) {
    params.push(q.before.at, q.before.id);
    where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(q.limit);
  const { rows } = await sql<DeliveryRow>(
    executor,
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows;
}

/**
 * One page of an endpoint's log by offset (the platform API's `page`/`per_page`), newest
 * first by (created_at, id), and how many deliveries the log holds under the filter.
 */
export async function offsetPageOfDeliveries(
  executor: Executor,
  endpointId: string,
  q: { status: DeliveryStatus | null; offset: number; limit: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = ['endpoint_id = $1', `created_at > now() - ${LOG_RETENTION}`, '($2::text IS NULL OR status = $2)'];
  const { rows } = await sql<DeliveryRow & { total: string }>(
    executor,
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM webhook_deliveries WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
    [endpointId, q.status, q.offset, q.limit],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && q.offset > 0) {
    // past the last page: the window function saw no row, so count on its own
    const counted = await sql<{ n: string }>(executor, `SELECT count(*) AS n FROM webhook_deliveries WHERE ${where.join(' AND ')}`, [endpointId, q.status]);
    total = Number(counted.rows[0].n);
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** A delivery of this endpoint that is still in the 7-day log. */
export async function findLoggedDelivery(executor: Executor, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const { rows } = await sql<DeliveryRow>(
    executor,
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND created_at > now() - ${LOG_RETENTION}`,
    [id, endpointId],
  );
  return rows[0] ?? null;
}

/** Attempts of the given deliveries, by delivery id, in attempt order. */
export async function attemptsOf(executor: Executor, deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
  const byDelivery = new Map<string, WebhookAttempt[]>(deliveryIds.map((id) => [id, []]));
  if (!deliveryIds.length) return byDelivery;
  const rows = await managerOf(executor).find(WebhookAttempt, {
    where: { deliveryId: In(deliveryIds) },
    order: { deliveryId: 'ASC', attempt: 'ASC' },
  });
  for (const a of rows) byDelivery.get(a.deliveryId)?.push(a);
  return byDelivery;
}
