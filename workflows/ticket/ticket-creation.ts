// The first part of a ticket workflow's life: from the start input to a stored, triaged
// ticket whose timers can run.
import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition } from '@temporalio/workflow';
import type { WorkspaceSettings } from '../../domain/workspaces/types';
import { creation, side, storage, triage, type TicketRun } from './ticket-run';

/**
 * Makes the run's state from the stored ticket and triages it; false when the ticket
 * could not be stored (the run then ends, with `creationFailure` the `created` update's
 * answer). Two kinds of start input replay here: with `stored` (the API stored the row,
 * the create outbox) the settings are loaded; without it (tickets created until Nov
 * 2026, ticket-lifecycle-2026-11-workflow-inserts.json) the workflow inserts the row
 * itself (docs/workflows.md).
 */
export async function createTicket(run: TicketRun): Promise<boolean> {
  const { input } = run;
  let stored: { settings: WorkspaceSettings };
  try {
    stored = input.stored ? { settings: await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId }) } : await creation.insertTicket(input);
  } catch (err) {
    // No ticket without a workflow, and no workflow without a ticket: end here.
    // a local activity's failure arrives as the ApplicationFailure itself, not wrapped
    const cause =
      err instanceof ApplicationFailure ? err : err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : null;
    // the API answers these two with their own 4xx; anything else is a 503
    const answered = cause?.type === 'player_not_found' || cause?.type === 'ticket_quota_exceeded';
    run.creationFailure = ApplicationFailure.create({
      message: cause?.message ?? 'The ticket could not be stored',
      type: answered ? cause!.type! : 'creation_failed',
      nonRetryable: true,
      details: answered ? cause!.details ?? undefined : undefined,
    });
    await condition(allHandlersFinished);
    return false;
  }
  run.state = {
    facts: {
      status: 'open',
      priority: input.priority,
      createdAt: Date.parse(input.createdAt),
      resolvedAt: null,
      firstResponseAt: null,
      autoCloseHours: stored.settings.autoCloseHours,
      sla: stored.settings.sla,
      breached: { first_response: false, resolution: false },
    },
    version: 1,
    assigneeId: null,
    workspaceId: input.workspaceId,
  };
  run.created = { ticketId: input.ticketId, version: 1 };
  // Triage is retried until it is stored (an outage of PostgreSQL or of the classifier
  // must not leave a ticket untriaged); only a failure that retrying cannot help ends
  // it, as triage is advisory: a ticket without it is still a ticket. Tickets created
  // before the outbox kept their shorter retry.
  await (input.stored ? triage : side).triageTicket({ ticketId: input.ticketId }).catch(() => undefined);
  return true;
}
