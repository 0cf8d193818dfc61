// The ticket workflow's steps: each one activity call (and what its result changes in
// the run's state), called by ticket.workflow.ts in the order its state table gives.
// Every command a ticket run issues is issued here or in ticket.workflow.ts.
import { ActivityFailure, ApplicationFailure, upsertSearchAttributes } from '@temporalio/workflow';
import type { WorkspaceSettings } from '../../domain/workspaces/types';
import type { AppliedChange, ApplyChangeRequest, LifecycleChange } from './activities.contract';
import type { Actor, ChangeReply, CreateTicketInput } from './contract';
import { creation, side, storage, triage } from './ticket-activities';
import { factsAfter, storedTicket, withFacts, type CarriedState, type TicketState } from './ticket-state';

/**
 * Stores the ticket, or loads the settings of the one the API stored. Two kinds of start
 * input replay here: with `stored` (the API stored the row, the create outbox) the
 * settings are loaded; without it (tickets created until Nov 2026,
 * ticket-lifecycle-2026-11-workflow-inserts.json) the workflow inserts the row itself
 * (docs/workflows.md). A failure is the `created` update's answer, and the run ends.
 */
export async function storeTicket(input: CreateTicketInput): Promise<{ ticket: CarriedState } | { failure: ApplicationFailure }> {
  let stored: { settings: WorkspaceSettings };
  try {
    stored = input.stored ? { settings: await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId }) } : await creation.insertTicket(input);
  } catch (err) {
    // a local activity's failure arrives as the ApplicationFailure itself, not wrapped
    const cause =
      err instanceof ApplicationFailure ? err : err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : null;
    // the API answers these two with their own 4xx; anything else is a 503
    const answered = cause?.type === 'player_not_found' || cause?.type === 'ticket_quota_exceeded';
    const failure = ApplicationFailure.create({
      message: cause?.message ?? 'The ticket could not be stored',
      type: answered ? cause!.type! : 'creation_failed',
      nonRetryable: true,
      details: answered ? cause!.details ?? undefined : undefined,
    });
    return { failure };
  }
  return { ticket: storedTicket(input, stored.settings) };
}

/**
 * Triage is retried until it is stored (an outage of PostgreSQL or of the classifier
 * must not leave a ticket untriaged); only a failure that retrying cannot help ends it,
 * as triage is advisory: a ticket without it is still a ticket. Tickets created before
 * the outbox kept their shorter retry.
 */
export async function triageTicket(input: CreateTicketInput): Promise<void> {
  await (input.stored ? triage : side).triageTicket({ ticketId: input.ticketId }).catch(() => undefined);
}

/** A change to store as the next step: what, who, its key, and the check it must pass. */
export interface StepRequest {
  change: LifecycleChange;
  actor: Actor | null;
  /** the change's name in the step log (docs/tickets.md, "Step keys"); see ticket.workflow.ts for each kind */
  key: string;
  /** throws the change's refusal (or a deadline's DeadlineMoved) if the state no longer accepts it; passes for a key in `storedKeys` */
  recheck: () => void;
}

/**
 * Stores a change as the ticket's next numbered step and takes its result into `state`.
 * The caller holds the change lock and has run `recheck` once. `at` (ms) is the step's
 * time when it is not now (a deadline: closedAt = resolvedAt + threshold, breachedAt =
 * the deadline).
 *
 * A `taken` answer: the number went to another change that this run's state does not
 * know of (a workflow task lost after its local activity committed, its Updates taken
 * in another order on retry). The row's facts become the state, the change is checked
 * again against them (it may now be refused, as it would have been had it run second)
 * and asks for the next number, until it is stored or refused. No history of a run from
 * before step keys holds a `taken` answer, so their commands are those of before.
 */
export async function applyChange(input: CreateTicketInput, state: TicketState, step: StepRequest, at?: number): Promise<ChangeReply> {
  const { change, actor, key } = step;
  for (;;) {
    const req: ApplyChangeRequest = { ticketId: input.ticketId, version: state.ticket!.version + 1, at: new Date(at ?? Date.now()).toISOString(), change, actor, key };
    const result = await storage.applyTicketChange(req);
    if (result?.taken) {
      state.storedKeys = [...state.storedKeys, ...(result.keys ?? []).filter((k) => !state.storedKeys.includes(k))];
      await takeResult(input, state, result.version, result);
      step.recheck();
      continue;
    }
    if (result?.storedAs) state.storedKeys = state.storedKeys.filter((k) => k !== key);
    if (change.kind === 'delete') state.deleted = true;
    // stored now (req.version), or earlier as `storedAs` while the row has moved on since
    await takeResult(input, state, result?.storedAs ? result.version : req.version, result);
    return { ticketId: input.ticketId, version: result?.storedAs ?? req.version, status: state.ticket!.facts.status };
  }
}

/** The stored row's step number and facts into `state`; the auto-close threshold once it turns resolved. */
async function takeResult(input: CreateTicketInput, state: TicketState, version: number, result: AppliedChange | null): Promise<void> {
  const before = state.ticket!;
  state.ticket = { ...before, version };
  if (result) {
    const facts = factsAfter(result);
    state.ticket = withFacts(state.ticket, facts);
    if (input.searchAttributes) upsertSearchAttributes({ TicketStatus: [facts.status], TicketPriority: [facts.priority] });
  }
  const ticket = state.ticket;
  if (before.facts.status !== 'resolved' && ticket.facts.status === 'resolved') {
    // the workspace threshold in force when the ticket is resolved applies to it
    ticket.facts.autoCloseHours = (await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId })).autoCloseHours;
  }
}

/** The resolution email of the step `version`; false when it could not be sent. */
export function sendResolutionNotification(input: CreateTicketInput, version: number): Promise<boolean> {
  return side.sendResolutionNotification({ ticketId: input.ticketId, version }).catch(() => false);
}
