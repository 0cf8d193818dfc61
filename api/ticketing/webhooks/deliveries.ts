// SQL for an endpoint's delivery log: the 7-day page, single deliveries, the redelivery
// claim and the synthetic rows of the test sender.
import type { Db, Queryable } from '../../../db/db';
import { errors } from '../../errors';
import type { DeliveriesQuery } from './schema';

/** Spec: "Successful and failed deliveries are kept in a delivery log for 7 days." */
export const LOG_RETENTION = "interval '7 days'";

export interface DeliveryRow {
  id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'skipped';
  attempts: number;
  synthetic: boolean;
  body: string;
  created_at: Date;
  completed_at: Date | null;
  /** created_at in UTC with microseconds, for the cursor: a JS Date would keep ms only and skip rows */
  created_key: string;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  scheduled_at: Date;
  started_at: Date;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

const COLUMNS = `id, event_type, status, attempts, synthetic, body, created_at, completed_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key`;
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

// The status filter is part of the cursor, so a cursor cannot be replayed on another filter.
interface Cursor {
  at: string;
  id: string;
  st: string | null;
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(raw: string, status: string | null): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString()) as Cursor;
    if (typeof c.id !== 'string' || !/^evt_[0-9a-zA-Z]{1,60}$/.test(c.id) || c.st !== status) throw new Error();
    // A tampered time must be a 400 here, not a cast error from Postgres (2024-02-31 …).
    if (typeof c.at !== 'string' || !CURSOR_TIME.test(c.at) || new Date(c.at).toISOString().slice(0, 23) !== c.at.slice(0, 23)) {
      throw new Error();
    }
    return c;
  } catch {
    throw errors.validation('cursor: invalid, or from a list with another status filter');
  }
}

/** One page, newest first by (created_at, id); `limit + 1` rows tell whether more follow. */
export async function listDeliveries(db: Queryable, endpointId: string, q: DeliveriesQuery) {
  const status = q.status ?? null;
  const where = ['endpoint_id = $1', `created_at > now() - ${LOG_RETENTION}`];
  const params: unknown[] = [endpointId];
  if (status) {
    params.push(status);
    where.push(`status = $${params.length}`);
  }
  if (q.cursor) {
    const c = decodeCursor(q.cursor, status);
    params.push(c.at, c.id);
    where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(q.limit + 1);
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > q.limit;
  return { rows: page, hasMore, nextCursor: hasMore ? encodeCursor({ at: last.created_key, id: last.id, st: status }) : null };
}

/** Attempts of the given deliveries, by delivery id, in attempt order. */
export async function attemptsOf(db: Queryable, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
  if (!deliveryIds.length) return byDelivery;
  const { rows } = await db.query<AttemptRow>(
    `SELECT delivery_id, attempt, scheduled_at, started_at, status_code, latency_ms, error
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
  for (const a of rows) byDelivery.get(a.delivery_id)?.push(a);
  return byDelivery;
}

/** A delivery of this endpoint that is still in the 7-day log. */
export async function findDelivery(db: Queryable, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND created_at > now() - ${LOG_RETENTION}`,
    [id, endpointId],
  );
  return rows[0] ?? null;
}

export interface Claimed {
  attempts: number;
  previous: { status: string; completedAt: Date | null };
}

/**
 * Puts a finished delivery back to pending for a redelivery, atomically: of two
 * concurrent redeliveries one claims it and the other sees it pending.
 * 'missing' when it is not in this endpoint's log, 'pending' when it is still being sent.
 */
export async function claimForRedelivery(db: Db, endpointId: string, id: string): Promise<Claimed | 'missing' | 'pending'> {
  return db.tx(async (q) => {
    const { rows } = await q.query<{ status: string; completed_at: Date | null; attempts: number }>(
      `SELECT status, completed_at, attempts FROM webhook_deliveries
        WHERE id = $1 AND endpoint_id = $2 AND created_at > now() - ${LOG_RETENTION} FOR UPDATE`,
      [id, endpointId],
    );
    const row = rows[0];
    if (!row) return 'missing';
    if (row.status === 'pending') return 'pending';
    await q.query(`UPDATE webhook_deliveries SET status = 'pending', completed_at = NULL WHERE id = $1`, [id]);
    return { attempts: row.attempts, previous: { status: row.status, completedAt: row.completed_at } };
  });
}

/** Undoes a claim whose workflow could not start; only if nothing has touched it since. */
export async function unclaim(db: Queryable, id: string, previous: Claimed['previous']): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE id = $1 AND status = 'pending'`, [
    id,
    previous.status,
    previous.completedAt,
  ]);
}

/**
 * A test-sender delivery: synthetic, with an event id of its own that no `events` row
 * has, so the outbox dispatcher never picks it up.
 */
export async function insertSyntheticDelivery(
  db: Queryable,
  d: { id: string; eventId: string; endpointId: string; workspaceId: string; type: string; body: string },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, synthetic)
     VALUES ($1, $2, $3, $4, $5, $6, true)`,
    [d.id, d.endpointId, d.eventId, d.type, d.workspaceId, d.body],
  );
}

/** Removes a test delivery whose workflow never started (nothing was sent). */
export async function deleteUnsentDelivery(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM webhook_deliveries WHERE id = $1 AND attempts = 0`, [id]);
}
