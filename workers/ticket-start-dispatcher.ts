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
import type { Db } from '../db/db';
import { claimTicketStarts, forgetTicketStarts } from '../db/repositories/ticket-starts';
import type { Logger } from '../lib/logger';
import { createOutboxDispatcher, type Dispatcher } from './outbox-dispatcher';
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

export type TicketStartDispatcher = Dispatcher;

export function createTicketStartDispatcher(opts: TicketStartDispatcherOptions): TicketStartDispatcher {
  const { db, client, logger } = opts;
  const taskQueue = opts.taskQueue ?? TICKETING_QUEUE;
  const batchSize = opts.batchSize ?? 50;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const reclaimAfterMs = opts.reclaimAfterMs ?? 5000;

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

  return createOutboxDispatcher<CreateTicketInput>({
    db,
    logger,
    channel: 'ticket_starts',
    name: 'ticket start',
    pollIntervalMs,
    claim: () => claimTicketStarts(db, { limit: batchSize, reclaimAfterMs }),
    start,
    settle: (started) => forgetTicketStarts(db, started.map((s) => s.ticketId)),
  });
}
