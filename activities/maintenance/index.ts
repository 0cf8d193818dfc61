import { ApplicationFailure } from '@temporalio/common';
import type { Queryable } from '../../db/db';
import type { MaintenanceActivities, PurgeRequest } from '../../workflows/maintenance/activities.contract';
import { purgePlan } from '../../workflows/maintenance/purge.logic';

export type { MaintenanceActivities };

/**
 * Housekeeping over our own storage. Every activity here is idempotent by nature: it
 * deletes what qualifies at the moment it runs, so a retry after a lost reply only
 * finds less to do. Postgres's clock decides the cutoff, the same clock that wrote the rows.
 */
export function createMaintenanceActivities({ db }: { db: Queryable }): MaintenanceActivities {
  /** One batch: `select` returns the keys (`key` columns) due ($1 = days, $2 = batch size), oldest first. */
  async function purge(req: PurgeRequest, table: string, select: string, key = 'id'): Promise<{ deleted: number }> {
    let plan;
    try {
      plan = purgePlan(req, req.olderThanDays);
    } catch (err) {
      throw ApplicationFailure.nonRetryable((err as Error).message, 'invalid_purge_input');
    }
    const { rowCount } = await db.query(`DELETE FROM ${table} WHERE (${key}) IN (${select})`, [plan.olderThanDays, plan.batchSize]);
    return { deleted: rowCount ?? 0 };
  }

  return {
    // the api_keys_revoked partial index serves the inner select
    purgeRevokedKeys: (req) =>
      purge(
        req,
        'api_keys',
        `SELECT id FROM api_keys WHERE revoked_at IS NOT NULL AND revoked_at < now() - make_interval(days => $1)
          ORDER BY revoked_at LIMIT $2`,
      ),
    // webhook_deliveries_created serves it; attempts go with their delivery (ON DELETE CASCADE)
    purgeWebhookLog: (req) =>
      purge(
        req,
        'webhook_deliveries',
        `SELECT id FROM webhook_deliveries WHERE created_at < now() - make_interval(days => $1) AND status <> 'pending'
          ORDER BY created_at LIMIT $2`,
      ),
    // events_dispatched serves it; an event not yet dispatched is never purged
    purgeEvents: (req) =>
      purge(
        req,
        'events',
        `SELECT id FROM events WHERE dispatched_at < now() - make_interval(days => $1)
          ORDER BY dispatched_at LIMIT $2`,
      ),
    // idempotency_created serves it; a key still in flight after a day is dead too
    purgeIdempotencyKeys: (req) =>
      purge(
        req,
        'idempotency_keys',
        `SELECT api_key_id, key FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1)
          ORDER BY created_at LIMIT $2`,
        'api_key_id, key',
      ),
  };
}
