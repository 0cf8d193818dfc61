import type { PurgeInput, PurgeResult } from './contract';
import { purgeActivities, purgeInBatches } from './purge-in-batches';
import { EVENT_RETENTION_DAYS } from './purge.logic';

/** Hourly (workers/schedules.ts): deletes outbox events dispatched longer ago than the delivery log is kept. */
export async function purgeEventsWorkflow(input: PurgeInput = {}): Promise<PurgeResult> {
  return purgeInBatches(input, EVENT_RETENTION_DAYS, purgeActivities.purgeEvents);
}
