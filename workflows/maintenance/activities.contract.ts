// Types of the maintenance activities, shared by the workflow (types only) and the
// implementation in activities/maintenance.

export interface PurgeRevokedKeysRequest {
  olderThanDays: number;
  /** at most this many rows are deleted per call, so one call stays short */
  batchSize?: number;
}

export interface MaintenanceActivities {
  /** Deletes API keys revoked more than `olderThanDays` ago; returns how many rows went. */
  purgeRevokedKeys(req: PurgeRevokedKeysRequest): Promise<{ deleted: number }>;
}
