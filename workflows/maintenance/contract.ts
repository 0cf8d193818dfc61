// What the schedules, the worker and tests may know about the maintenance workflows.
// Imports nothing: the API and workers/schedules.ts use it without the workflow code.

/**
 * The maintenance workflows run on the ticketing queue: they only touch ticketing
 * tables, and an extra queue would need its own worker process for a daily job.
 */
export const MAINTENANCE_TASK_QUEUE = 'ticketing';

export const PURGE_REVOKED_KEYS_WORKFLOW_TYPE = 'purgeRevokedKeysWorkflow';
export const PURGE_REVOKED_KEYS_SCHEDULE_ID = 'maintenance/purge-revoked-keys';

export const PURGE_WEBHOOK_LOG_WORKFLOW_TYPE = 'purgeWebhookLogWorkflow';
export const PURGE_WEBHOOK_LOG_SCHEDULE_ID = 'maintenance/purge-webhook-log';

export const PURGE_EVENTS_WORKFLOW_TYPE = 'purgeEventsWorkflow';
export const PURGE_EVENTS_SCHEDULE_ID = 'maintenance/purge-events';

export const PURGE_IDEMPOTENCY_KEYS_WORKFLOW_TYPE = 'purgeIdempotencyKeysWorkflow';
export const PURGE_IDEMPOTENCY_KEYS_SCHEDULE_ID = 'maintenance/purge-idempotency-keys';

export interface PurgeInput {
  /**
   * rows older than this are deleted; default the purge's retention (365 for revoked
   * keys, 7 for the webhook log and dispatched events, 1 for idempotency keys)
   */
  olderThanDays?: number;
  /** rows per activity call; default 1000 */
  batchSize?: number;
}

export interface PurgeResult {
  deleted: number;
  batches: number;
}
