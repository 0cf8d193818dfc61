// The retention purges' statements: each deletes one batch of what is past its retention,
// oldest first, and returns how many rows went. Postgres's clock decides the cutoff, the
// same clock that wrote the rows. Idempotent by nature: a repeat only finds less to do.
import { sql, type Executor } from '../db';

/** One batch: `select` returns the keys (`key` columns) due ($1 = days, $2 = batch size), oldest first. */
async function purge(executor: Executor, table: string, select: string, olderThanDays: number, batchSize: number, key = 'id'): Promise<number> {
  const { rowCount } = await sql(executor, `DELETE FROM ${table} WHERE (${key}) IN (${select})`, [olderThanDays, batchSize]);
  return rowCount ?? 0;
}

/** API keys revoked more than `olderThanDays` ago (the api_keys_revoked partial index serves the inner select). */
export const purgeRevokedApiKeys = (executor: Executor, olderThanDays: number, batchSize: number) =>
  purge(
    executor,
    'api_keys',
    `SELECT id FROM api_keys WHERE revoked_at IS NOT NULL AND revoked_at < now() - make_interval(days => $1)
      ORDER BY revoked_at LIMIT $2`,
    olderThanDays,
    batchSize,
  );

/**
 * Webhook deliveries created more than `olderThanDays` ago and no longer pending
 * (webhook_deliveries_created serves it); attempts go with their delivery (ON DELETE CASCADE).
 */
export const purgeWebhookDeliveries = (executor: Executor, olderThanDays: number, batchSize: number) =>
  purge(
    executor,
    'webhook_deliveries',
    `SELECT id FROM webhook_deliveries WHERE created_at < now() - make_interval(days => $1) AND status <> 'pending'
      ORDER BY created_at LIMIT $2`,
    olderThanDays,
    batchSize,
  );

/** Outbox events dispatched more than `olderThanDays` ago (events_dispatched serves it); an undispatched one is never purged. */
export const purgeDispatchedEvents = (executor: Executor, olderThanDays: number, batchSize: number) =>
  purge(
    executor,
    'events',
    `SELECT id FROM events WHERE dispatched_at < now() - make_interval(days => $1)
      ORDER BY dispatched_at LIMIT $2`,
    olderThanDays,
    batchSize,
  );

/** Idempotency keys created more than `olderThanDays` ago (idempotency_created serves it); one still in flight after a day is dead too. */
export const purgeIdempotencyKeys = (executor: Executor, olderThanDays: number, batchSize: number) =>
  purge(
    executor,
    'idempotency_keys',
    `SELECT api_key_id, key FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1)
      ORDER BY created_at LIMIT $2`,
    olderThanDays,
    batchSize,
    'api_key_id, key',
  );
