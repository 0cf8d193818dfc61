import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError, type UpdateDefinition } from '@temporalio/common';
import type { AppDeps } from '../../deps';
import { AppError } from '../../kit/errors';
import { errors } from '../errors';
import { findTicket } from '../../../db/repositories/tickets';
import {
  deleteUpdate,
  ENDED_TICKET_WORKFLOW_TYPE,
  TICKET_WORKFLOW_TYPE,
  TICKETING_QUEUE,
  ticketWorkflowId,
  type Actor,
  type CreateTicketInput,
  type EndedTicketInput,
} from '../../../workflows/ticket/contract';
import { checkChange, type ChangeKind } from '../../../domain/tickets/rules';
import type { TicketRecord, TicketStatus } from '../../../domain/tickets/types';

import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { enqueueWorkflowStart, findWorkflowStart, type OutboxStart } from '../../../db/repositories/workflow-starts';
import { isDomainError } from '../../../domain/errors';
import { withinDeadline as withinTemporalDeadline } from '../../../lib/temporal/deadline';
import { storeNewTicket } from '../../../domain/tickets/store-new-ticket';
import type { IdempotencyState } from '../../kit/idempotency';
import { quotaExceeded } from './quota';
/**
 * Temporal calls of a request end within this many ms (DEADLINE_EXCEEDED → 503), and its
 * answer a second later at the most (lib/temporal/deadline.ts), so a Temporal server or a
 * worker that is down never holds an answer past 10 s.
 */
export const TEMPORAL_DEADLINE_MS = 8000;

function withinDeadline<R>(deps: AppDeps, fn: () => Promise<R>): Promise<R> {
  return withinTemporalDeadline(deps.temporal, TEMPORAL_DEADLINE_MS, fn);
}

/**
 * Sends a change to the ticket's workflow. Validator rejections become the spec's
 * 409/422; a workflow that has ended (closed or deleted ticket) is answered from the
 * stored row with the same rules the validator applies, and a deletion of such a
 * ticket goes to a short `endedTicketWorkflow` run (deleteEndedTicket).
 */
export async function changeTicket<Ret, Args extends [any, ...any[]]>(
  deps: AppDeps,
  ticketId: string,
  kind: ChangeKind,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
  requestedStatus?: TicketStatus,
): Promise<Ret> {
  const send = () => withinDeadline(deps, () => deps.temporal.workflow.getHandle(ticketWorkflowId(ticketId)).executeUpdate(update, { args }));
  try {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      // created, but the start dispatcher has not started its workflow yet: start it with this change
      const pending = await findWorkflowStart(deps.db, ticketWorkflowId(ticketId));
      if (pending) return await startWithChange(deps, pending, update, args);
      // or the dispatcher started it (and dropped the entry) between the two reads
      return await send();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (failure instanceof ApplicationFailure && failure.type) throw fromFailure(ticketId, failure);
    if (err instanceof WorkflowNotFoundError || isCompleted(err)) {
      const stored = await findTicket(deps.db, ticketId);
      if (!stored) throw errors.ticketNotFound(ticketId);
      if (kind === 'delete') return (await deleteEndedTicket(deps, stored, args[0] as Actor)) as Ret;
      const rejection = checkChange(stored.status, kind, requestedStatus);
      if (rejection) throw new AppError(rejection.type === 'ticket_already_closed' ? 409 : 422, rejection.type, rejection.message);
    }
    deps.logger.error({ err, ticketId }, 'ticket change failed');
    throw errors.unavailable();
  }
}

/**
 * Update-with-start of a ticket whose outbox entry is still pending (its row is stored):
 * `ticket/<id>` on the ticketing queue with the entry's input and search attributes. A
 * failure is answered by changeTicket like any other.
 */
function startWithChange<Ret, Args extends [any, ...any[]]>(deps: AppDeps, pending: OutboxStart, update: UpdateDefinition<Ret, Args>, args: Args): Promise<Ret> {
  const startWorkflowOperation = new WithStartWorkflowOperation(TICKET_WORKFLOW_TYPE, {
    workflowId: pending.workflowId,
    taskQueue: TICKETING_QUEUE,
    args: pending.args,
    workflowIdConflictPolicy: 'USE_EXISTING',
    searchAttributes: pending.searchAttributes ?? undefined,
  });
  return withinDeadline(deps, () => deps.temporal.workflow.executeUpdateWithStart(update, { args, startWorkflowOperation }));
}

/** A new ticket's entry in the workflow-start outbox: `ticket/<id>` with its input and search attributes. */
export function ticketWorkflowStart(input: CreateTicketInput): OutboxStart {
  return {
    workflowId: ticketWorkflowId(input.ticketId),
    workflowType: TICKET_WORKFLOW_TYPE,
    taskQueue: TICKETING_QUEUE,
    args: [input],
    // none on servers without them
    searchAttributes: input.searchAttributes
      ? { WorkspaceId: [input.workspaceId], TicketStatus: ['open'], TicketPriority: [input.priority] }
      : undefined,
  };
}

/**
 * Deletes a ticket whose lifecycle workflow has ended (closed), through update-with-start
 * of `ticket/<id>`: a new `endedTicketWorkflow` run applies the delete as the next step.
 * Should the lifecycle run still be finishing, the update goes to it instead
 * (USE_EXISTING); either way one workflow writes the ticket.
 */
async function deleteEndedTicket(deps: AppDeps, stored: TicketRecord, actor: Actor): Promise<{ deleted: true }> {
  const input: EndedTicketInput = { ticketId: stored.id, status: stored.status, version: (stored as TicketRecord & { version: number }).version };
  const startWorkflowOperation = new WithStartWorkflowOperation(ENDED_TICKET_WORKFLOW_TYPE, {
    workflowId: ticketWorkflowId(stored.id),
    taskQueue: TICKETING_QUEUE,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  try {
    return await withinDeadline(deps, () => deps.temporal.workflow.executeUpdateWithStart(deleteUpdate, { args: [actor], startWorkflowOperation }));
  } catch (err) {
    const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (failure instanceof ApplicationFailure && failure.type) throw fromFailure(stored.id, failure);
    deps.logger.error({ err, ticketId: stored.id }, 'deleting an ended ticket failed');
    throw errors.unavailable();
  }
}

function isCompleted(err: unknown): boolean {
  return err instanceof Error && /already completed|not found/i.test(err.message);
}

function fromFailure(ticketId: string, failure: ApplicationFailure): AppError {
  switch (failure.type) {
    case 'ticket_already_closed':
      return new AppError(409, 'ticket_already_closed', failure.message);
    case 'invalid_status_transition':
      return new AppError(422, 'invalid_status_transition', failure.message);
    case 'ticket_deleted':
    case 'ticket_not_found':
      return errors.ticketNotFound(ticketId);
    case 'ticket_not_ready':
      return new AppError(409, 'ticket_not_ready', 'The ticket is still being created; retry in a moment');
    default:
      return errors.unavailable(failure.message);
  }
}

/**
 * The create path (docs/tickets.md): one transaction writes the ticket row, its
 * `ticket.created` event, the month's usage, an outbox entry for its workflow and, under
 * an Idempotency-Key, the ticket's id on that key. The answer does not wait for Temporal:
 * the ticketing worker's start dispatcher starts `ticket/<id>` from the outbox (and a
 * change that arrives first starts it itself: changeTicket below). All or nothing: a row always
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
