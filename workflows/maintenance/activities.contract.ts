// Types of the maintenance activities, shared by the workflow (types only) and the
// implementation in activities/maintenance.

export interface PurgeRequest {
  olderThanDays: number;
  /** at most this many rows are deleted per call, so one call stays short */
  batchSize?: number;
}

export interface MaintenanceActivities {
  /** Deletes API keys revoked more than `olderThanDays` ago; returns how many rows went. */
  purgeRevokedKeys(req: PurgeRequest): Promise<{ deleted: number }>;
  /**
   * Deletes webhook deliveries created more than `olderThanDays` ago, with their attempts;
   * a delivery still pending (a late manual redelivery) waits for its end.
   */
  purgeWebhookLog(req: PurgeRequest): Promise<{ deleted: number }>;
  /** Deletes outbox events dispatched more than `olderThanDays` ago; undispatched ones stay. */
  purgeEvents(req: PurgeRequest): Promise<{ deleted: number }>;
  /** Deletes idempotency keys (with their stored responses) created more than `olderThanDays` ago. */
  purgeIdempotencyKeys(req: PurgeRequest): Promise<{ deleted: number }>;
}
