import type { Executor } from '../../db/db';
import { purgeDispatchedEvents, purgeIdempotencyKeys, purgeRevokedApiKeys, purgeWebhookDeliveries } from '../../db/repositories/retention';
import { DomainError } from '../../domain/errors';
import type { MaintenanceActivities, PurgeRequest } from '../../workflows/maintenance/activities.contract';
import { purgePlan, type PurgePlan } from '../../workflows/maintenance/purge.logic';
import { withDomainFailures } from '../failures';

export type { MaintenanceActivities };

type PurgeBatch = (executor: Executor, olderThanDays: number, batchSize: number) => Promise<number>;

/** The request's plan; a retention under one day or an unusable batch size is refused. */
function planOf(req: PurgeRequest): PurgePlan {
  try {
    return purgePlan(req, req.olderThanDays);
  } catch (err) {
    throw new DomainError('invalid', 'invalid_purge_input', (err as Error).message);
  }
}

/**
 * Housekeeping over our own storage (the statements: db/repositories/retention.ts). Every
 * activity here is idempotent by nature: it deletes what qualifies at the moment it runs,
 * so a retry after a lost reply only finds less to do.
 */
export function createMaintenanceActivities({ db }: { db: Executor }): MaintenanceActivities {
  const purge = (batch: PurgeBatch) => async (req: PurgeRequest) => {
    const plan = planOf(req);
    return { deleted: await batch(db, plan.olderThanDays, plan.batchSize) };
  };
  return withDomainFailures({
    purgeRevokedKeys: purge(purgeRevokedApiKeys),
    purgeWebhookLog: purge(purgeWebhookDeliveries),
    purgeEvents: purge(purgeDispatchedEvents),
    purgeIdempotencyKeys: purge(purgeIdempotencyKeys),
  });
}
