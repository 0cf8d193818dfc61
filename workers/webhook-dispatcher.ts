// The outbox dispatcher: runs beside the `webhooks` worker and turns committed events into
// webhook deliveries, one batch workflow per claim and webhook API (whatever committed
// since the last one), on the schedule of that API (domain/webhooks/apis.ts). A NOTIFY
// from the events table (migration WebhookDispatch) wakes it the moment an event commits;
// a slow poll covers a lost notification or connection.
// Workflow starts are deduplicated by id (startOnce), so several dispatchers, a restart
// between claim and start, or a reclaim never start a batch twice.
import type { Client } from '@temporalio/client';
import type { Db } from '../db/db';
import { markDispatched } from '../db/repositories/events';
import { claimEvents, type ClaimedBatch } from '../domain/webhooks/claim-events';
import type { Logger } from '../lib/logger';
import { startOnce } from '../lib/temporal/start-once';
import { createOutboxDispatcher, type Dispatcher } from './outbox-dispatcher';
import { webhookApi, type WebhookApis } from '../domain/webhooks/apis';
import { WEBHOOK_BATCH_WORKFLOW_TYPE, WEBHOOKS_QUEUE, webhookBatchWorkflowId, type WebhookBatchInput } from '../workflows/webhook-delivery/contract';

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
  /** the webhook APIs, whose schedules the batches follow (default WEBHOOK_APIS) */
  apis?: WebhookApis;
  /** fallback poll when no notification arrives */
  pollIntervalMs?: number;
  /** a claim older than this without a dispatch is taken up again */
  reclaimAfterMs?: number;
  /** the least time between two claims while they come back short (WEBHOOK_GATHER_MS) */
  gatherMs?: number;
}

/**
 * Under load a claim takes what committed in the last 150 ms, so the batch workflows, each
 * costing the Temporal server a start, a read of the new run and a completion, stay few:
 * at 100 platform events/s this halved the starts and took p99 from the change from a
 * median of 511 to 283 ms (docs/webhooks.md, "Claims gather under load"). A lone event
 * after a quiet spell is claimed at once.
 */
export const WEBHOOK_GATHER_MS = 150;

export type { Dispatcher };

export function createWebhookDispatcher(opts: DispatcherOptions): Dispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? WEBHOOKS_QUEUE;
  const batchSize = opts.batchSize ?? 50;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 30_000;

  async function start(batch: ClaimedBatch): Promise<void> {
    // the schedule travels in the input as data: the workflow holds none of its own
    const input: WebhookBatchInput = { batchId: batch.batchId, deliveryIds: batch.deliveryIds, schedule: webhookApi(batch.api, opts.apis).schedule, roundInOneActivity: true };
    await startOnce(client, WEBHOOK_BATCH_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: webhookBatchWorkflowId(batch.batchId),
      args: [input],
      memo: { events: batch.events, deliveries: batch.deliveryIds.length }, // for operators in the Web UI
      eager: true, // the first task straight to this process's worker (lib/temporal/start-once.ts)
    });
  }

  return createOutboxDispatcher<ClaimedBatch>({
    db,
    logger,
    channel: 'events_outbox',
    name: 'webhook',
    pollIntervalMs,
    claim: async () => {
      const { batches, full } = await claimEvents(db, { limit: batchSize, reclaimAfterMs, apis: opts.apis });
      return { items: batches, full };
    },
    start,
    settle: (started) => markDispatched(db, started.map((b) => b.batchId)),
    maxDrains: 4, // while claims come back full (docs/webhooks.md, "Drains in parallel when behind")
    gatherMs: opts.gatherMs ?? WEBHOOK_GATHER_MS,
  });
}
