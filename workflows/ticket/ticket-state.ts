// The ticket workflow's state and the pure decisions over it: which state a run is in,
// whether that state accepts a change (and the refusal when not), what a deadline
// stores, and what the query answers. ticket.workflow.ts owns the one TicketState of a
// run; nothing here issues a command.
import type { ApplicationFailure } from '@temporalio/workflow';
import { checkChange, nextDeadline, type ChangeKind, type Deadline, type TimerFacts } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';
import { asRefusal, refusal } from '../refusal';
import { ticketNotFound } from '../../domain/tickets/errors';
import type { AppliedChange, LifecycleChange } from './activities.contract';
import type { CreatedReply, CreateTicketInput, TicketFacts, TicketWorkflowState } from './contract';

/** What survives continue-as-new (ids, numbers and statuses: never the ticket's text). */
export interface CarriedState {
  facts: TimerFacts;
  version: number;
  assigneeId: string | null;
  workspaceId: string;
  /** the run's `storedKeys` when it continued as new with some (absent when none) */
  storedKeys?: string[];
}

/** Everything one run of a ticket workflow knows. */
export interface TicketState {
  /** the stored ticket's timer facts and step number; null while it is being created */
  ticket: CarriedState | null;
  /** the answer of the `created` update, once there is one */
  created: CreatedReply | null;
  /** the `created` update's answer when the ticket could not be stored */
  creationFailure: ApplicationFailure | null;
  deleted: boolean;
  /**
   * Keys of changes stored by a workflow task that was then lost, learned from a `taken`
   * answer (docs/tickets.md, "Step keys"): each will ask again and be answered as stored,
   * so neither its validator nor its re-check may refuse it by the state it made itself.
   * Empty but for the few steps after such a task.
   */
  storedKeys: string[];
}

/** The rows of the state table (docs/workflows.md, "The ticket workflow"). */
export type TicketPhase = 'created' | TicketStatus | 'deleted';

export function initialTicketState(input: CreateTicketInput, carried?: CarriedState): TicketState {
  const { storedKeys = [], ...ticket } = carried ?? {};
  return {
    ticket: carried ? (ticket as CarriedState) : null,
    // a continued run's ticket was stored by an earlier run
    created: carried ? { ticketId: input.ticketId, version: 1 } : null,
    creationFailure: null,
    deleted: false,
    storedKeys,
  };
}

export function phaseOf(state: TicketState): TicketPhase {
  if (state.deleted) return 'deleted';
  return state.ticket ? state.ticket.facts.status : 'created';
}

/** Whether the run is over: the lifecycle workflow ends once its ticket is closed or deleted. */
export const isFinal = (state: TicketState): boolean => phaseOf(state) === 'closed' || phaseOf(state) === 'deleted';

/** A just-stored ticket: open, its timers from the workspace's settings. */
export function storedTicket(input: CreateTicketInput, settings: Pick<TimerFacts, 'autoCloseHours' | 'sla'>): CarriedState {
  return {
    facts: {
      status: 'open',
      priority: input.priority,
      createdAt: Date.parse(input.createdAt),
      resolvedAt: null,
      firstResponseAt: null,
      autoCloseHours: settings.autoCloseHours,
      sla: settings.sla,
      breached: { first_response: false, resolution: false },
    },
    version: 1,
    assigneeId: null,
    workspaceId: input.workspaceId,
  };
}

/**
 * The refusal of a change in the run's state, or null when the state accepts it. While
 * the ticket is being created, a change waits for it when the row is stored already
 * (update-with-start of a ticket the API stored) and is checked then; a ticket the
 * workflow inserts itself (runs started before the outbox) is not ready yet.
 */
export function refusalOf(input: CreateTicketInput, state: TicketState, kind: ChangeKind, requested?: TicketStatus): ApplicationFailure | null {
  if (!state.ticket) {
    return input.stored ? null : refusal('conflict', 'ticket_not_ready', 'The ticket is still being created; retry in a moment');
  }
  if (state.deleted) return asRefusal(ticketNotFound(input.ticketId));
  const r = checkChange(state.ticket.facts.status, kind, requested);
  return r && refusal(r.kind, r.type, r.message);
}

/** The step a deadline stores. */
export function deadlineChange(kind: Deadline['kind']): LifecycleChange {
  return kind === 'auto_close' ? { kind: 'auto_close' } : { kind: 'sla_breach', policy: breachPolicy(kind) };
}

/**
 * The step key of a deadline's step: its kind and time, both from the run's state (the
 * facts of stored steps and the settings), never from the clock, so a replay and a
 * retried task name it alike. Unique per ticket: each SLA policy is breached at most
 * once (its `breached` flag, carried across continue-as-new) and auto-close ends the
 * lifecycle; a deadline that moves (a reply, a new priority) is another time, hence
 * another step.
 */
export const deadlineKey = (kind: Deadline['kind'], at: number): string => `deadline:${kind}:${new Date(at).toISOString()}`;

export const breachPolicy = (kind: 'sla_first_response' | 'sla_resolution') => (kind === 'sla_first_response' ? 'first_response' : 'resolution');

/**
 * Whether the deadline `kind` is still the one due at `now`: a change that was in flight
 * when its timer fired (a reply, a resolve) may have moved it.
 */
export function isStillDue(facts: TimerFacts, kind: Deadline['kind'], now: number): boolean {
  const d = nextDeadline(facts);
  return !!d && d.kind === kind && d.at <= now;
}

/**
 * The facts in a stored step's result. Results recorded before replies became small
 * (histories of tickets created until Nov 2026, e.g. ticket-lifecycle-2026-11-full-
 * records.json) carry the whole row as `ticket`; both shapes replay (docs/workflows.md).
 */
export function factsAfter(result: AppliedChange | { ticket: TicketFacts }): TicketFacts {
  return 'facts' in result ? result.facts : result.ticket;
}

/** The stored row's facts in the carried state's form (times in ms). */
export function withFacts(ticket: CarriedState, t: TicketFacts): CarriedState {
  const ms = (iso: string | null) => (iso ? Date.parse(iso) : null);
  return {
    ...ticket,
    facts: { ...ticket.facts, status: t.status, priority: t.priority, resolvedAt: ms(t.resolvedAt), firstResponseAt: ms(t.firstResponseAt) },
    assigneeId: t.assigneeId,
  };
}

/** The state query's answer. */
export function describe(state: TicketState): TicketWorkflowState | null {
  if (!state.ticket) return null;
  const d = nextDeadline(state.ticket.facts);
  return { status: state.ticket.facts.status, version: state.ticket.version, nextDeadline: d && { kind: d.kind, at: new Date(d.at).toISOString() } };
}
