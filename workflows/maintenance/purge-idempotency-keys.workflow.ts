import type { PurgeInput, PurgeResult } from './contract';
import { purgeActivities, purgeInBatches } from './purge-in-batches';
import { IDEMPOTENCY_KEY_RETENTION_DAYS } from './purge.logic';

/** Hourly (workers/schedules.ts): deletes idempotency keys and their stored responses after 24 h. */
export async function purgeIdempotencyKeysWorkflow(input: PurgeInput = {}): Promise<PurgeResult> {
  return purgeInBatches(input, IDEMPOTENCY_KEY_RETENTION_DAYS, purgeActivities.purgeIdempotencyKeys);
}
