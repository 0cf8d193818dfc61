// What the schedules, the worker and tests may know about the maintenance workflows.
// Imports nothing: the API and workers/schedules.ts use it without the workflow code.

/**
 * The maintenance workflows run on the ticketing queue: they only touch ticketing
 * tables, and an extra queue would need its own worker process for a daily job.
 */
export const MAINTENANCE_TASK_QUEUE = 'ticketing';

export const PURGE_REVOKED_KEYS_WORKFLOW_TYPE = 'purgeRevokedKeysWorkflow';
export const PURGE_REVOKED_KEYS_SCHEDULE_ID = 'maintenance/purge-revoked-keys';

export interface PurgeRevokedKeysInput {
  /** keys revoked longer ago than this are deleted; default 365 (spec: audit retention) */
  olderThanDays?: number;
  /** rows per activity call; default 1000 */
  batchSize?: number;
}

export interface PurgeRevokedKeysResult {
  deleted: number;
  batches: number;
}
