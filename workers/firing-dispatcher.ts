// The firing dispatcher: runs beside the `push` worker and turns committed event trigger
// firings into batch workflows, `trigger-batch/<batchId>`, one per group of firings due
// within the same second (docs/push.md, "Event triggers"). A NOTIFY from the firings
// table (migration TriggerBatches) wakes it the moment a fire commits; a slow poll covers
// a lost notification or connection. Under load a claim takes whatever committed since
// the last one, so batches grow with the rate and the workflows a second stay few.
// Workflow starts are deduplicated by id (startOnce), so several dispatchers, a restart
// between claim and start, or a reclaim never start a batch twice.
import type { Client } from '@temporalio/client';
import type { Db } from '../db/db';
import { markFiringBatchesDispatched } from '../db/repositories/push-event-triggers';
import { claimFiringBatches, type ClaimedFiringBatch } from '../domain/push/claim-firings';
import type { Logger } from '../lib/logger';
import { startOnce } from '../lib/temporal/start-once';
import { createOutboxDispatcher, type Dispatcher } from './outbox-dispatcher';
import { START_DEADLINE_MS } from './workflow-start-dispatcher';
import {
  PUSH_QUEUE,
  TRIGGER_BATCH_WORKFLOW_TYPE,
  triggerBatchWorkflowId,
  type TriggerBatchInput,
} from '../workflows/trigger-batch/contract';

export interface FiringDispatcherOptions {
  db: Db;
  client: Client;
  logger: Logger;
  taskQueue?: string;
  /** firings per claim, so at most this many per batch: one page of the send (500) */
  batchSize?: number;
  /** fallback poll when no notification arrives */
  pollIntervalMs?: number;
  /** a claim older than this without a dispatch is taken up again */
  reclaimAfterMs?: number;
}

export type { Dispatcher };

export function createFiringDispatcher(opts: FiringDispatcherOptions): Dispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? PUSH_QUEUE;
  const batchSize = opts.batchSize ?? 500;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 30_000;

  async function start(batch: ClaimedFiringBatch): Promise<void> {
    const input: TriggerBatchInput = { batchId: batch.batchId, sendAtMs: batch.sendAtMs };
    await startOnce(client, TRIGGER_BATCH_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: triggerBatchWorkflowId(batch.batchId),
      args: [input],
      memo: { firings: batch.firings }, // for operators in the Web UI
      deadlineMs: START_DEADLINE_MS,
    });
  }

  return createOutboxDispatcher<ClaimedFiringBatch>({
    db,
    logger,
    channel: 'push_trigger_firings',
    name: 'trigger firing',
    pollIntervalMs: opts.pollIntervalMs ?? 1000,
    claim: () => claimFiringBatches(db, { limit: batchSize, reclaimAfterMs }),
    start,
    settle: (started) => markFiringBatchesDispatched(db, started.map((b) => b.batchId)),
  });
}
