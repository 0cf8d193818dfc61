// webhook_deliveries and webhook_attempts: the delivery log's writes (the fan-out, the
// delivery activity, redelivery, erasure, the pause). Its reads for the APIs are
// webhook-delivery-log.ts. SQL through the query API: the fan-out inserts a batch with ON
// CONFLICT, and an attempt is recorded together with its delivery row in one statement.
import { Raw } from 'typeorm';
import { WebhookDelivery } from '../entities';
import { managerOf, sql, type Db, type Executor } from '../db';

/** Spec: "Successful and failed deliveries are kept in a delivery log for 7 days." */
export const LOG_RETENTION = "interval '7 days'";
const inLog = Raw((createdAt) => `${createdAt} > now() - ${LOG_RETENTION}`);

export type DeliveryStatus = WebhookDelivery['status'];

export interface Claimed {
  attempts: number;
  previous: { status: DeliveryStatus; completedAt: Date | null };
}

/**
 * Puts a finished delivery back to pending for a redelivery, atomically under the row
 * lock: of two concurrent redeliveries one claims it and the other sees it pending.
 * 'missing' when it is not in this endpoint's log, 'pending' when it is still being sent,
 * 'real' when `syntheticOnly` (an endpoint in test mode) and it is a real event's.
 */
export async function claimForRedelivery(
  db: Pick<Db, 'transaction'>,
  endpointId: string,
  id: string,
  opts: { syntheticOnly?: boolean } = {},
): Promise<Claimed | 'missing' | 'pending' | 'real'> {
  return db.transaction(async (m) => {
    const row = await m.findOne(WebhookDelivery, {
      select: { id: true, status: true, completedAt: true, attempts: true, synthetic: true },
      where: { id, endpointId, createdAt: inLog },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row) return 'missing';
    if (opts.syntheticOnly && !row.synthetic) return 'real';
    if (row.status === 'pending') return 'pending';
    await m.update(WebhookDelivery, { id }, { status: 'pending', completedAt: null });
    return { attempts: row.attempts, previous: { status: row.status, completedAt: row.completedAt } };
  });
}

/** Undoes a claim whose workflow could not start; only if nothing has touched it since. */
export async function unclaim(executor: Executor, id: string, previous: Claimed['previous']): Promise<void> {
  await managerOf(executor).update(WebhookDelivery, { id, status: 'pending' }, previous);
}

/**
 * A test-sender delivery: synthetic, with an event id of its own that no `events` row
 * has, so the outbox dispatcher never picks it up.
 */
export async function insertSyntheticDelivery(
  executor: Executor,
  d: { id: string; eventId: string; endpointId: string; workspaceId: string; type: string; body: string },
): Promise<void> {
  const { type, ...rest } = d;
  await managerOf(executor).insert(WebhookDelivery, { ...rest, eventType: type, synthetic: true });
}

/** Removes a test delivery whose workflow never started (nothing was sent). */
export async function deleteUnsentDelivery(executor: Executor, id: string): Promise<void> {
  await managerOf(executor).delete(WebhookDelivery, { id, attempts: 0 });
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  workspaceId: string;
  body: string;
  /** skipped: for a paused endpoint, visible in the log and redeliverable */
  status: 'pending' | 'skipped';
}

/** The fan-out's rows, in one statement; an (event, endpoint) pair that has one keeps it. */
export async function insertDeliveries(executor: Executor, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof NewDelivery>(k: K) => rows.map((r) => r[k]);
  await sql(
    executor,
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, status, completed_at)
     SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.workspace_id, d.body, d.status,
            CASE WHEN d.status = 'skipped' THEN now() END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS d(id, endpoint_id, event_id, event_type, workspace_id, body, status)
     ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
    [col('id'), col('endpointId'), col('eventId'), col('eventType'), col('workspaceId'), col('body'), col('status')],
  );
}

/** A delivery row with its log state given, not only the fan-out's (tests build delivery logs from it). */
export interface LoggedDelivery extends Omit<NewDelivery, 'status'> {
  status: DeliveryStatus;
  attempts: number;
  createdAt: Date;
  completedAt: Date | null;
}

/** Writes the row; an (event, endpoint) pair that has one gets this body and status. Answers the row's id. */
export async function putLoggedDelivery(executor: Executor, d: LoggedDelivery): Promise<string> {
  const { rows } = await sql<{ id: string }>(
    executor,
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, status, attempts, created_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET body = EXCLUDED.body, status = EXCLUDED.status RETURNING id`,
    [d.id, d.endpointId, d.eventId, d.eventType, d.workspaceId, d.body, d.status, d.attempts, d.createdAt, d.completedAt],
  );
  return rows[0].id;
}

/** What one attempt needs, with the attempt's record if it already happened. */
export interface DeliveryToAttempt {
  body: string;
  endpoint_id: string;
  /** the endpoint's webhook API: which signature headers the attempt carries */
  api: string;
  url: string;
  active: boolean;
  deleted_at: Date | null;
  /** a real event's delivery to an endpoint in test mode: not sent (docs/webhooks.md, "Test mode") */
  withheld: boolean;
  secret_box: string;
  /** the secret the last rotation replaced, and until when it is still signed with (null: none) */
  previous_secret_box: string | null;
  previous_secret_expires_at: Date | null;
  recorded_at: Date | null;
  recorded_error: string | null;
}

const TO_ATTEMPT = `SELECT d.id, d.body, d.endpoint_id, e.api, e.url, e.active, e.deleted_at, e.test_mode AND NOT d.synthetic AS withheld, e.secret_box,
            e.previous_secret_box, e.previous_secret_expires_at,
            a.started_at AS recorded_at, a.error AS recorded_error
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = $2`;

export async function deliveryToAttempt(executor: Executor, deliveryId: string, attempt: number): Promise<DeliveryToAttempt | null> {
  const { rows } = await sql<DeliveryToAttempt>(executor, `${TO_ATTEMPT} WHERE d.id = $1`, [deliveryId, attempt]);
  return rows[0] ?? null;
}

/**
 * deliveryToAttempt for several deliveries in one statement (a round's wave: one query
 * instead of one per delivery). A purged delivery is absent from the map.
 */
export async function deliveriesToAttempt(executor: Executor, deliveryIds: readonly string[], attempt: number): Promise<Map<string, DeliveryToAttempt>> {
  const { rows } = await sql<DeliveryToAttempt & { id: string }>(executor, `${TO_ATTEMPT} WHERE d.id = ANY($1::text[])`, [deliveryIds, attempt]);
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

/**
 * The delivery row after an attempt: $1 id, $2 attempts made (the counter only grows),
 * $3 whether the outcome ends the delivery, $4 the outcome, written as its final status.
 */
const SETTLE = `UPDATE webhook_deliveries
     SET attempts = GREATEST(attempts, $2::int),
         status = CASE WHEN $3::boolean THEN $4::text ELSE status END,
         completed_at = CASE WHEN $3::boolean THEN now() ELSE completed_at END
   WHERE id = $1`;

export async function settleDelivery(
  executor: Executor,
  deliveryId: string,
  s: { attempts: number; ends: boolean; outcome: DeliveryStatus },
): Promise<void> {
  await sql(executor, SETTLE, [deliveryId, s.attempts, s.ends, s.outcome]);
}

/** The attempt and the delivery row in one statement (a retried attempt overwrites its record). */
export async function recordAttempt(
  executor: Executor,
  a: {
    deliveryId: string;
    attempt: number;
    ends: boolean;
    outcome: DeliveryStatus;
    scheduledAt: Date | string;
    startedAt: Date;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
  },
): Promise<void> {
  await sql(
    executor,
    `WITH attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, scheduled_at, started_at, status_code, latency_ms, error)
       VALUES ($1, $2, $5, $6, $7, $8, $9)
       ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = $6, status_code = $7, latency_ms = $8, error = $9
     ) ${SETTLE}`,
    [a.deliveryId, a.attempt, a.ends, a.outcome, a.scheduledAt, a.startedAt, a.statusCode, a.latencyMs, a.error],
  );
}

/** Player erasure: the envelopes made from these events (log and pending retries) get `data` replaced. */
export async function eraseEnvelopeData(executor: Executor, eventIds: string[], data: unknown): Promise<void> {
  if (!eventIds.length) return;
  await sql(
    executor,
    `UPDATE webhook_deliveries SET body = jsonb_set(body::jsonb, '{data}', $2::jsonb)::text WHERE event_id = ANY($1::text[])`,
    [eventIds, JSON.stringify(data)],
  );
}

/** The distinct endpoints these deliveries go to. */
export async function endpointsOfDeliveries(executor: Executor, deliveryIds: string[]): Promise<string[]> {
  const rows = await managerOf(executor)
    .createQueryBuilder(WebhookDelivery, 'd')
    .select('DISTINCT d.endpoint_id', 'endpoint_id')
    .where('d.id = ANY(:ids)', { ids: deliveryIds })
    .orderBy('endpoint_id')
    .getRawMany<{ endpoint_id: string }>();
  return rows.map((r) => r.endpoint_id);
}

export interface ExhaustedDelivery {
  id: string;
  event_type: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  error: string | null;
}

/** Those of `deliveryIds` that go to `endpointId`, each with its last attempt (at most `limit`). */
export async function lastAttemptsOf(executor: Executor, endpointId: string, deliveryIds: string[], limit: number): Promise<ExhaustedDelivery[]> {
  const { rows } = await sql<ExhaustedDelivery>(
    executor,
    `SELECT d.id, d.event_type, a.attempt, a.started_at, a.status_code, a.error
       FROM webhook_deliveries d
       JOIN LATERAL (SELECT * FROM webhook_attempts WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1) a ON true
      WHERE d.id = ANY($1::text[]) AND d.endpoint_id = $2 ORDER BY d.id LIMIT $3`,
    [deliveryIds, endpointId, limit],
  );
  return rows;
}
