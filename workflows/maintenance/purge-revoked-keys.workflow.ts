import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities } from './activities.contract';
import type { PurgeRevokedKeysInput, PurgeRevokedKeysResult } from './contract';
import { purgePlan, shouldContinue } from './purge-revoked-keys.logic';

const { purgeRevokedKeys } = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 10 },
});

/**
 * Daily (workers/schedules.ts): deletes API keys whose revocation is older than the
 * audit retention, one short batch per activity call so a large backlog never holds
 * one long transaction. Each batch is idempotent (it deletes whatever qualifies now).
 */
export async function purgeRevokedKeysWorkflow(input: PurgeRevokedKeysInput = {}): Promise<PurgeRevokedKeysResult> {
  let plan: ReturnType<typeof purgePlan>;
  try {
    plan = purgePlan(input);
  } catch (err) {
    // bad input fails the run instead of retrying its workflow task forever
    throw ApplicationFailure.nonRetryable((err as Error).message, 'invalid_purge_input');
  }
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const result = await purgeRevokedKeys({ olderThanDays: plan.olderThanDays, batchSize: plan.batchSize });
    deleted += result.deleted;
    batches++;
    if (!shouldContinue(result.deleted, plan.batchSize, batches)) break;
  }
  return { deleted, batches };
}
