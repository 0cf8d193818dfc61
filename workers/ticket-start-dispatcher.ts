// The create path's dispatcher: runs beside the `ticketing` worker and starts the workflow
// of every ticket the API stored (row + outbox entry in one transaction, api/ticketing/
// tickets/create.ts). A NOTIFY from the outbox (migration CreateOutbox) wakes it the moment
// a create commits; a poll covers a lost notification or connection. Starts are
// deduplicated by workflow id (REJECT_DUPLICATE), so several dispatchers, a restart between
// claim and start, a reclaim, or a change that started the workflow first (gateway.ts,
// update-with-start) never start a ticket's workflow twice. An entry is deleted only once
// its workflow is known to exist; a start that fails (Temporal down) is retried.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Db, Listener } from '../db/db';
import { claimTicketStarts, forgetTicketStarts } from '../db/repositories/ticket-starts';
import type { Logger } from '../lib/logger';
import { TICKET_WORKFLOW_TYPE, TICKETING_QUEUE, ticketWorkflowId, type CreateTicketInput } from '../workflows/ticket/contract';

export interface TicketStartDispatcherOptions {
  db: Db;
  client: Client;
  logger: Logger;
  taskQueue?: string;
  batchSize?: number;
  /** fallback poll when no notification arrives; also how soon a failed start is retried */
  pollIntervalMs?: number;
  /** a claim older than this without a start is taken up again */
  reclaimAfterMs?: number;
}

export interface TicketStartDispatcher {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createTicketStartDispatcher(opts: TicketStartDispatcherOptions): TicketStartDispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? TICKETING_QUEUE;
  const batchSize = opts.batchSize ?? 50;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 5000;
  let listener: Listener | undefined;
  let poll: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  async function start(input: CreateTicketInput): Promise<void> {
    try {
      // a Temporal server that does not answer fails this start, which is retried
      await client.withDeadline(Date.now() + 5000, () =>
        client.workflow.start(TICKET_WORKFLOW_TYPE, {
          taskQueue,
          workflowId: ticketWorkflowId(input.ticketId),
          args: [input],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          searchAttributes: input.searchAttributes
            ? { WorkspaceId: [input.workspaceId], TicketStatus: ['open'], TicketPriority: [input.priority] }
            : undefined,
        }),
      );
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  async function drain(): Promise<void> {
    for (;;) {
      const claimed = await claimTicketStarts(db, { limit: batchSize, reclaimAfterMs });
      if (!claimed.length) return;
      const results = await Promise.allSettled(claimed.map(start));
      await forgetTicketStarts(db, claimed.filter((_, i) => results[i].status === 'fulfilled').map((s) => s.ticketId));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      // the unstarted ones stay claimed and are taken up again after reclaimAfterMs
      if (failed) throw failed.reason;
    }
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err) => logger.warn({ err }, 'starting ticket workflows failed; retrying on the next wake-up'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  async function listen(): Promise<void> {
    try {
      const l: Listener = await db.listen('ticket_starts', {
        onNotify: wake,
        onError(err) {
          logger.warn({ err }, 'ticket start dispatcher lost its LISTEN connection; reconnecting');
          if (listener === l) listener = undefined;
          if (!stopped) setTimeout(() => listen(), pollIntervalMs);
        },
      });
      listener = l;
      wake(); // whatever committed before LISTEN
    } catch (err) {
      // PostgreSQL is down: the poll keeps draining once it is back, and LISTEN is retried
      if (!stopped) setTimeout(() => listen(), pollIntervalMs);
    }
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
