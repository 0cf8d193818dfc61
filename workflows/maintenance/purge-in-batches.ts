import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities, PurgeRequest } from './activities.contract';
import type { PurgeInput, PurgeResult } from './contract';
import { purgePlan, shouldContinue } from './purge.logic';

export const purgeActivities = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 10 },
});

/**
 * The shape of every retention purge: one short batch per activity call, so a large
 * backlog never holds one long transaction. Each batch is idempotent (it deletes
 * whatever qualifies now), so a retried call only finds less to do.
 */
export async function purgeInBatches(
  input: PurgeInput,
  defaultDays: number,
  purgeBatch: (req: PurgeRequest) => Promise<{ deleted: number }>,
): Promise<PurgeResult> {
  let plan: ReturnType<typeof purgePlan>;
  try {
    plan = purgePlan(input, defaultDays);
  } catch (err) {
    // bad input fails the run instead of retrying its workflow task forever
    throw ApplicationFailure.nonRetryable((err as Error).message, 'invalid_purge_input');
  }
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const result = await purgeBatch({ olderThanDays: plan.olderThanDays, batchSize: plan.batchSize });
    deleted += result.deleted;
    batches++;
    if (!shouldContinue(result.deleted, plan.batchSize, batches)) break;
  }
  return { deleted, batches };
}
