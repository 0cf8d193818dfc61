// Between the ticket routes and the ticket workflow (docs/platform.md, "Tickets"): the
// create (the row, its event, its workflow's outbox entry and the Idempotency-Key binding
// in one transaction; the answer does not wait on Temporal) and every later change
// through the one Update path (api/kit/workflow-update.ts).
import type { UpdateDefinition } from '@temporalio/common';
import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { findPlatformTicket } from '../../../db/repositories/platform-tickets';
import { enqueueWorkflowStart } from '../../../db/repositories/workflow-starts';
import type { PlatformCaller } from '../../../domain/platform/access.rules';
import { createPlatformTicket, type NewTicketInput } from '../../../domain/platform/create-ticket';
import { platformIdempotencyInProgress, platformNotFound } from '../../../domain/platform/errors';
import { checkPlatformTicketChange, type PlatformTicketChangeKind } from '../../../domain/platform/ticket.rules';
import type { PlatformTicketRecord, PlatformTicketStatus } from '../../../domain/platform/types';
import {
  PLATFORM_QUEUE,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketWorkflowId,
  platformTicketWorkflowStart,
  type PlatformTicketCarried,
  type PlatformTicketChangeReply,
  type PlatformTicketInput,
} from '../../../workflows/platform-ticket/contract';
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import type { IdempotencyState } from '../../kit/idempotency';
import { updateWorkflow } from '../../kit/workflow-update';

/** The create path: all or nothing, a row always with its outbox entry until its workflow runs. */
export async function createTicket(deps: AppDeps, caller: PlatformCaller, input: NewTicketInput, idem?: IdempotencyState): Promise<PlatformTicketRecord> {
  return deps.db.transaction(async (m) => {
    if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, input.ticketId))) throw platformIdempotencyInProgress();
    const ticket = await createPlatformTicket(m, caller, input);
    await enqueueWorkflowStart(m, platformTicketWorkflowStart(inputOf(deps, ticket)));
    return ticket;
  });
}

/**
 * Sends a change to the ticket's workflow. A workflow that has ended (a closed ticket's
 * run ends at close; a purged one's at the purge) is answered from the stored row with the
 * rules its validators apply; a closed ticket's deletion starts a new run under the same
 * id with the row's facts (update-with-start), so the workflow stays the only writer and
 * keeps the 30-day timer.
 */
export function changeTicket<Args extends unknown[]>(
  deps: AppDeps,
  ticketId: string,
  kind: PlatformTicketChangeKind,
  update: UpdateDefinition<PlatformTicketChangeReply, Args>,
  args: Args,
  requested?: PlatformTicketStatus,
): Promise<PlatformTicketChangeReply> {
  return updateWorkflow(deps, {
    workflowId: platformTicketWorkflowId(ticketId),
    update,
    args,
    taskQueue: PLATFORM_QUEUE,
    onEnded: async ({ restart }) => {
      const row = await findPlatformTicket(deps.db, ticketId);
      if (!row) throw platformNotFound('ticket', ticketId);
      if (kind === 'delete' && row.status === 'closed' && !row.deletedAt) {
        return restart({ workflowType: PLATFORM_TICKET_WORKFLOW_TYPE, taskQueue: PLATFORM_QUEUE, args: [inputOf(deps, row), carriedOf(row)] });
      }
      const refusal = checkPlatformTicketChange(ticketId, standingOf(row), kind, nowOf(deps).getTime(), requested);
      if (refusal) throw refusal;
      // the row would take the change, yet its workflow is gone: not ours to apply without it
      deps.logger.error({ ticketId, status: row.status, kind }, 'platform ticket change failed: the workflow ended before its ticket closed');
      throw errors.unavailable();
    },
  });
}

export const standingOf = (row: PlatformTicketRecord) => ({
  status: row.status,
  purgeAt: row.purgeAt ? new Date(row.purgeAt).getTime() : null,
  deleted: row.deletedAt !== null,
});

/**
 * The workflow's start input: ids, and where its risk assessments run. Inside the workflow
 * task when only the in-process model answers (a few milliseconds); as activities when an
 * LLM endpoint is configured, which takes seconds (workflows/platform-ticket/risk.ts).
 */
const inputOf = (deps: AppDeps, row: PlatformTicketRecord): PlatformTicketInput => ({
  ticketId: row.id,
  workspaceId: row.workspaceId,
  assigneeId: row.assigneeId,
  riskInTask: !deps.config.triageOpenAi,
});

const carriedOf = (row: PlatformTicketRecord): PlatformTicketCarried => ({
  status: row.status,
  version: row.version,
  assigneeId: row.assigneeId,
  purgeAt: row.deletedAt && row.purgeAt ? new Date(row.purgeAt).toISOString() : null,
});
