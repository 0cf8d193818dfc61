import type { PurgeInput, PurgeResult } from './contract';
import { purgeActivities, purgeInBatches } from './purge-in-batches';
import { REVOKED_KEY_RETENTION_DAYS } from './purge.logic';

/** Daily (workers/schedules.ts): deletes API keys whose revocation is older than the audit retention. */
export async function purgeRevokedKeysWorkflow(input: PurgeInput = {}): Promise<PurgeResult> {
  return purgeInBatches(input, REVOKED_KEY_RETENTION_DAYS, purgeActivities.purgeRevokedKeys);
}
