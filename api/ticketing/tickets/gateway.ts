import type { UpdateDefinition } from '@temporalio/common';
import type { AppDeps } from '../../deps';
import { AppError } from '../../kit/errors';
import { updateWorkflow } from '../../kit/workflow-update';
import { errors } from '../errors';
import { findTicket } from '../../../db/repositories/tickets';
import {
  ENDED_TICKET_WORKFLOW_TYPE,
  TICKETING_QUEUE,
  ticketWorkflowId,
  ticketWorkflowStart,
  type CreateTicketInput,
  type EndedTicketInput,
} from '../../../workflows/ticket/contract';
import { checkChange, type ChangeKind } from '../../../domain/tickets/rules';
import type { TicketRecord, TicketStatus } from '../../../domain/tickets/types';

import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { enqueueWorkflowStart } from '../../../db/repositories/workflow-starts';
import { DomainError, isDomainError } from '../../../domain/errors';
import { storeNewTicket } from '../../../domain/tickets/store-new-ticket';
import type { IdempotencyState } from '../../kit/idempotency';
import { quotaExceeded } from './quota';

/**
 * Sends a change to the ticket's workflow through the one Update path
 * (api/kit/workflow-update.ts): its refusals (409/422/404) come back as DomainErrors. A
 * workflow that has ended (a closed ticket) is answered from the stored row with the
 * rules its validator applies, and a deletion of such a ticket is the first step of a
 * short `endedTicketWorkflow` run under the same id (update-with-start): the workflow
 * stays the only writer of the ticket.
 */
export function changeTicket<Ret, Args extends [any, ...any[]]>(
  deps: AppDeps,
  ticketId: string,
  kind: ChangeKind,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
  requestedStatus?: TicketStatus,
): Promise<Ret> {
  return updateWorkflow(deps, {
    workflowId: ticketWorkflowId(ticketId),
    update,
    args,
    // a change that starts a pending ticket's workflow starts it where the ticketing worker runs
    taskQueue: TICKETING_QUEUE,
    onEnded: async ({ restart }) => {
      const stored = await findTicket(deps.db, ticketId);
      if (!stored) throw errors.ticketNotFound(ticketId);
      if (kind === 'delete') return restart({ workflowType: ENDED_TICKET_WORKFLOW_TYPE, taskQueue: TICKETING_QUEUE, args: [endedTicketInput(stored)] });
      const rejection = checkChange(stored.status, kind, requestedStatus);
      if (rejection) throw new DomainError(rejection.kind, rejection.type, rejection.message);
      // the row would take the change, yet its workflow is gone: not ours to apply without it
      deps.logger.error({ ticketId, status: stored.status, kind }, 'ticket change failed: the workflow ended before its ticket closed');
      throw errors.unavailable();
    },
  });
}

/** The input of the run that deletes a ticket whose lifecycle workflow has ended: the stored status and step. */
function endedTicketInput(stored: TicketRecord): EndedTicketInput {
  return { ticketId: stored.id, status: stored.status, version: (stored as TicketRecord & { version: number }).version };
}

/**
 * The create path (docs/tickets.md): one transaction writes the ticket row, its
 * `ticket.created` event, the month's usage, an outbox entry for its workflow and, under
 * an Idempotency-Key, the ticket's id on that key. The answer does not wait for Temporal:
 * the ticketing worker's start dispatcher starts `ticket/<id>` from the outbox (and a
 * change that arrives first starts it itself: changeTicket above). All or nothing: a row always
 * has its outbox entry until its workflow runs, and no workflow starts without its row.
 */
export async function createTicket(deps: AppDeps, input: CreateTicketInput, idem?: IdempotencyState): Promise<void> {
  try {
    await deps.db.transaction(async (c) => {
      if (idem && !(await bindIdempotencyResource(c, idem.scope, idem.key, idem.token, input.ticketId))) {
        throw new LeaseLost();
      }
      await storeNewTicket(c, input);
      await enqueueWorkflowStart(c, ticketWorkflowStart({ ...input, stored: true }));
    });
  } catch (err) {
    if (err instanceof LeaseLost) {
      throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
    }
    // the command's refusals, in the words this API has always used for them (the
    // player by the caller's id, the quota with its Retry-After)
    if (isDomainError(err)) {
      if (err.code === 'player_not_found') throw errors.playerNotFound(input.playerId);
      if (err.code === 'ticket_quota_exceeded') throw quotaExceeded(Number(err.details.limit));
      if (err.code === 'workspace_not_found') throw new AppError(404, 'not_found', `No workspace '${input.workspaceId}'`);
    }
    throw err; // a database that is down: the error middleware answers 503
  }
}

/** This request's lease on its Idempotency-Key lapsed and a retry took the key over. */
class LeaseLost extends Error {}
