// The firing dispatcher: runs beside the `push` worker and turns committed event trigger
// firings into batch workflows, `trigger-batch/<batchId>`, one per group of firings due
// within the same second (docs/push.md, "Event triggers"). A NOTIFY from the firings
// table (migration TriggerBatches) wakes it the moment a fire commits; a slow poll covers
// a lost notification or connection. Claims are at least `gatherMs` apart: the first
// firing after a quiet spell is claimed at once, and under load each claim takes what
// committed in the last `gatherMs` (a full claim is followed by the next at once), so
// batches grow with the rate while the workflows stay few (each costs the Temporal server
// and the worker about as much as dozens of firings).
// Workflow starts are deduplicated by id (startOnce), so several dispatchers, a restart
// between claim and start, or a reclaim never start a batch twice.
import type { Client } from '@temporalio/client';
import type { Db } from '../db/db';
import { markFiringBatchesDispatched } from '../db/repositories/push-event-triggers';
import { claimFiringBatches, type ClaimedFiringBatch } from '../domain/push/claim-firings';
import type { Logger } from '../lib/logger';
import { startOnce } from '../lib/temporal/start-once';
import { createOutboxDispatcher, type Dispatcher, type OutboxClaim } from './outbox-dispatcher';
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
  /** the least time between two claims (the most a firing waits for its batch to fill) */
  gatherMs?: number;
}

export type { Dispatcher };

/**
 * The default least time between two claims: at 250 fires/s a batch holds ~50 firings,
 * and a delay-0 firing waits at most this long for its batch (docs/push.md, "Event triggers").
 */
export const FIRING_GATHER_MS = 200;

export function createFiringDispatcher(opts: FiringDispatcherOptions): Dispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? PUSH_QUEUE;
  const batchSize = opts.batchSize ?? 500;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 30_000;

  async function claim(): Promise<OutboxClaim<ClaimedFiringBatch>> {
    const batches = await claimFiringBatches(db, { limit: batchSize, reclaimAfterMs });
    return { items: batches, full: batches.reduce((n, b) => n + b.firingIds.length, 0) >= batchSize };
  }

  async function start(batch: ClaimedFiringBatch): Promise<void> {
    const input: TriggerBatchInput = { batchId: batch.batchId, sendAtMs: batch.sendAtMs };
    await startOnce(client, TRIGGER_BATCH_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: triggerBatchWorkflowId(batch.batchId),
      args: [input],
      memo: { firings: batch.firings }, // for operators in the Web UI
      deadlineMs: START_DEADLINE_MS,
      eager: true, // the first task straight to this process's worker (lib/temporal/start-once.ts)
    });
  }

  return createOutboxDispatcher<ClaimedFiringBatch>({
    db,
    logger,
    channel: 'push_trigger_firings',
    name: 'trigger firing',
    pollIntervalMs: opts.pollIntervalMs ?? 1000,
    claim,
    start,
    settle: (started) => markFiringBatchesDispatched(db, started.map((b) => b.batchId)),
    gatherMs: opts.gatherMs ?? FIRING_GATHER_MS, // one drain at a time (the loop's default)
  });
}
