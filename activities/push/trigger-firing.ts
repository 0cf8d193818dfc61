// The trigger firing workflow's own activities (workflows/trigger-firing/contract.ts):
// thin adapters over domain/push/send-trigger-firing.ts. The push itself is the send
// workflow's page activity (send-page.ts), registered beside these on the push queue.
import type { Db } from '../../db/db';
import { finishTriggerFiring, startTriggerFiring } from '../../domain/push/send-trigger-firing';
import type { TriggerFiringActivities } from '../../workflows/trigger-firing/contract';

export function createTriggerFiringActivities(deps: { db: Db }): TriggerFiringActivities {
  return {
    startTriggerFiring: ({ firingId }) => startTriggerFiring(deps.db, firingId),
    finishTriggerFiring: ({ firingId, sendId }) => finishTriggerFiring(deps.db, firingId, sendId),
  };
}
