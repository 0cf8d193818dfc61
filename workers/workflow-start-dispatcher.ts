// The start dispatcher of one task queue: starts the workflow of every entry the
// workflow-start outbox holds for that queue (db/repositories/workflow-starts.ts; the
// entity and its entry commit in one transaction: a ticket, api/ticketing/tickets/
// create.ts; a push send, domain/push/send.ts). A NOTIFY on the queue's channel (migration
// WorkflowStarts) wakes it the moment an entry commits; a poll covers a lost notification
// or connection. Starts go through startOnce (one run per workflow id, "already started"
// is success), so several dispatchers, a restart between claim and start, a reclaim, or a
// change that started the workflow first (update-with-start, api/ticketing/tickets/
// gateway.ts) never start a workflow twice. An entry is deleted only once its workflow is
// known to exist; a start that fails (Temporal down) is retried after the reclaim time.
import type { Client } from '@temporalio/client';
import type { Db } from '../db/db';
import { claimWorkflowStarts, forgetWorkflowStarts, workflowStartsChannel, type OutboxStart } from '../db/repositories/workflow-starts';
import type { Logger } from '../lib/logger';
import { startOnce } from '../lib/temporal/start-once';
import { createOutboxDispatcher, type Dispatcher } from './outbox-dispatcher';

/** A Temporal server that does not accept a start within this many ms fails it; it is retried. */
export const START_DEADLINE_MS = 5000;

export interface WorkflowStartDispatcherOptions {
  db: Db;
  client: Client;
  logger: Logger;
  /** whose entries this dispatcher starts (each on the task queue its entry names) */
  taskQueue: string;
  batchSize?: number;
  /** fallback poll when no notification arrives */
  pollIntervalMs?: number;
  /** a claim older than this without a start is taken up again */
  reclaimAfterMs?: number;
}

export function createWorkflowStartDispatcher(opts: WorkflowStartDispatcherOptions): Dispatcher {
  const { db, client, logger, taskQueue } = opts;
  const batchSize = opts.batchSize ?? 50;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 5000;

  async function start(s: OutboxStart): Promise<void> {
    await startOnce(client, s.workflowType, {
      workflowId: s.workflowId,
      taskQueue: s.taskQueue,
      args: s.args,
      searchAttributes: s.searchAttributes ?? undefined,
      memo: s.memo ?? undefined,
      deadlineMs: START_DEADLINE_MS,
      eager: true, // the first task straight to this process's worker (lib/temporal/start-once.ts)
    });
  }

  return createOutboxDispatcher<OutboxStart>({
    db,
    logger,
    channel: workflowStartsChannel(taskQueue),
    name: `${taskQueue} workflow start`,
    pollIntervalMs: opts.pollIntervalMs ?? 1000,
    claim: async () => {
      const items = await claimWorkflowStarts(db, { taskQueue, limit: batchSize, reclaimAfterMs });
      return { items, full: items.length >= batchSize };
    },
    start,
    settle: (started) => forgetWorkflowStarts(db, started.map((s) => s.workflowId)),
    maxDrains: 4, // while claims come back full (docs/webhooks.md, "Drains in parallel when behind")
  });
}
