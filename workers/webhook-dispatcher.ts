// The outbox dispatcher: runs beside the `webhooks` worker and turns committed events into
// webhook deliveries, one batch workflow per claim (whatever committed since the last
// one). A NOTIFY from the events table (migration WebhookDispatch) wakes it the moment an
// event commits; a slow poll covers a lost notification or connection.
// Workflow starts are deduplicated by id (REJECT_DUPLICATE), so several dispatchers, a
// restart between claim and start, or a reclaim never start a batch twice.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { claimEvents, markDispatched, type ClaimedBatch } from '../activities/webhooks/fan-out';
import type { Db, Listener } from '../db/db';
import type { Logger } from '../lib/logger';
import { TICKETING_RETRY_SCHEDULE } from '../lib/webhooks/retry-schedules';
import {
  WEBHOOK_BATCH_WORKFLOW_TYPE,
  WEBHOOKS_QUEUE,
  webhookBatchWorkflowId,
  type RetrySchedule,
  type WebhookBatchInput,
} from '../workflows/webhook-delivery/contract';

export interface DispatcherOptions {
  db: Db;
  client: Client;
  logger: Logger;
  taskQueue?: string;
  /**
   * Events per claim, i.e. per batch workflow: at most this many events × a workspace's
   * endpoints (20) deliveries. A batch run's history holds about one event per delivery
   * (docs/webhooks.md, "Batch size and history").
   */
  batchSize?: number;
  /** the schedule every delivery of these batches follows; default the ticketing spec's */
  schedule?: RetrySchedule;
  /** fallback poll when no notification arrives */
  pollIntervalMs?: number;
  /** a claim older than this without a dispatch is taken up again */
  reclaimAfterMs?: number;
}

export interface Dispatcher {
  /** resolves once LISTEN is in place and the backlog pass has begun */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWebhookDispatcher(opts: DispatcherOptions): Dispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? WEBHOOKS_QUEUE;
  const batchSize = opts.batchSize ?? 50;
  const schedule = opts.schedule ?? TICKETING_RETRY_SCHEDULE;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 30_000;
  let listener: Listener | undefined;
  let poll: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  async function start(batch: ClaimedBatch): Promise<void> {
    const input: WebhookBatchInput = { batchId: batch.batchId, deliveryIds: batch.deliveryIds, schedule };
    try {
      await client.workflow.start(WEBHOOK_BATCH_WORKFLOW_TYPE, {
        taskQueue,
        workflowId: webhookBatchWorkflowId(batch.batchId),
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        memo: { events: batch.events, deliveries: batch.deliveryIds.length }, // for operators in the Web UI
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  /** Claims and starts batches until the outbox is empty. */
  async function drain(): Promise<void> {
    for (;;) {
      const claimed = await claimEvents(db, { limit: batchSize, reclaimAfterMs });
      if (!claimed.length) return;
      const results = await Promise.allSettled(claimed.map(start));
      const started = claimed.filter((_, i) => results[i].status === 'fulfilled').map((b) => b.batchId);
      await markDispatched(db, started);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      // The unstarted ones stay claimed and are taken up again after reclaimAfterMs.
      if (failed) throw failed.reason;
    }
  }

  /** One drain at a time; a wake-up during a drain runs another right after it. */
  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err) => logger.warn({ err }, 'webhook dispatch failed; retrying on the next wake-up'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  async function listen(): Promise<void> {
    const l: Listener = await db.listen('events_outbox', {
      onNotify: wake,
      onError(err) {
        logger.warn({ err }, 'webhook dispatcher lost its LISTEN connection; reconnecting');
        if (listener === l) listener = undefined;
        if (!stopped) setTimeout(() => listen().catch(() => undefined), pollIntervalMs);
      },
    });
    listener = l;
    wake(); // whatever committed before LISTEN
  }

  return {
    async start() {
      await listen();
      poll = setInterval(wake, pollIntervalMs);
      poll.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      await running;
      await listener?.close();
      listener = undefined;
    },
  };
}
