// The trigger batch workflow's own activities (workflows/trigger-batch/contract.ts):
// thin adapters over domain/push/send-trigger-batch.ts. The push itself is the send
// workflow's page activity (send-page.ts), registered beside these on the push queue.
import type { Db } from '../../db/db';
import { finishTriggerBatch, startTriggerBatch } from '../../domain/push/send-trigger-batch';
import type { TriggerBatchActivities } from '../../workflows/trigger-batch/contract';
import { withDomainFailures } from '../failures';

export function createTriggerBatchActivities(deps: { db: Db }): TriggerBatchActivities {
  return withDomainFailures({
    startTriggerBatch: ({ batchId }) => startTriggerBatch(deps.db, batchId),
    finishTriggerBatch: ({ batchId }) => finishTriggerBatch(deps.db, batchId),
  });
}
