// Pure decisions of the retention purges, shared by the workflows, the activities and tests.
import type { PurgeInput } from './contract';

/** Spec, Limits: "Revoked key audit retention: 365 days". */
export const REVOKED_KEY_RETENTION_DAYS = 365;
/** Spec, Limits: "Delivery log retention: 7 days". */
export const WEBHOOK_LOG_RETENTION_DAYS = 7;
/**
 * Dispatched outbox events go once the delivery log they fed is gone: nothing reads an
 * event after its deliveries are made (they keep their own envelope bytes).
 */
export const EVENT_RETENTION_DAYS = WEBHOOK_LOG_RETENTION_DAYS;
/** Contracts, Idempotency: a key replays its first response for 24 h, then goes. */
export const IDEMPOTENCY_KEY_RETENTION_DAYS = 1;
export const DEFAULT_PURGE_BATCH = 1000;
/** Upper bound on batches per run; what is left is purged by tomorrow's run. */
export const MAX_PURGE_BATCHES = 500;

export interface PurgePlan {
  olderThanDays: number;
  batchSize: number;
}

/** Fills defaults and refuses values that would purge too much (a retention under one day). */
export function purgePlan(input: PurgeInput = {}, defaultDays = REVOKED_KEY_RETENTION_DAYS): PurgePlan {
  const olderThanDays = input.olderThanDays ?? defaultDays;
  const batchSize = input.batchSize ?? DEFAULT_PURGE_BATCH;
  if (!Number.isInteger(olderThanDays) || olderThanDays < 1) {
    throw new RangeError(`olderThanDays must be an integer of at least 1, got ${olderThanDays}`);
  }
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new RangeError(`batchSize must be an integer from 1 to 10000, got ${batchSize}`);
  }
  return { olderThanDays, batchSize };
}

/** A full batch means there may be more; a short one means the backlog is done. */
export function shouldContinue(deletedInBatch: number, batchSize: number, batchesDone: number): boolean {
  return deletedInBatch >= batchSize && batchesDone < MAX_PURGE_BATCHES;
}
