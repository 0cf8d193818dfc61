import { ApplicationFailure } from '@temporalio/common';
import type { Queryable } from '../../db/db';
import type { MaintenanceActivities, PurgeRevokedKeysRequest } from '../../workflows/maintenance/activities.contract';
import { purgePlan } from '../../workflows/maintenance/purge-revoked-keys.logic';

export type { MaintenanceActivities };

/**
 * Housekeeping over our own storage. Every activity here is idempotent by nature: it
 * deletes what qualifies at the moment it runs, so a retry after a lost reply only
 * finds less to do.
 */
export function createMaintenanceActivities({ db }: { db: Queryable }): MaintenanceActivities {
  return {
    async purgeRevokedKeys(req: PurgeRevokedKeysRequest) {
      let plan;
      try {
        plan = purgePlan(req);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'invalid_purge_input');
      }
      // Postgres's clock decides the cutoff, the same clock that wrote revoked_at.
      // The api_keys_revoked partial index serves the inner select.
      const { rowCount } = await db.query(
        `DELETE FROM api_keys WHERE id IN (
           SELECT id FROM api_keys
           WHERE revoked_at IS NOT NULL AND revoked_at < now() - make_interval(days => $1)
           ORDER BY revoked_at
           LIMIT $2
         )`,
        [plan.olderThanDays, plan.batchSize],
      );
      return { deleted: rowCount ?? 0 };
    },
  };
}
