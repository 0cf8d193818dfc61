import type { PurgeInput, PurgeResult } from './contract';
import { purgeActivities, purgeInBatches } from './purge-in-batches';
import { WEBHOOK_LOG_RETENTION_DAYS } from './purge.logic';

/** Hourly (workers/schedules.ts): deletes webhook deliveries (and their attempts) older than the log's retention. */
export async function purgeWebhookLogWorkflow(input: PurgeInput = {}): Promise<PurgeResult> {
  return purgeInBatches(input, WEBHOOK_LOG_RETENTION_DAYS, purgeActivities.purgeWebhookLog);
}
