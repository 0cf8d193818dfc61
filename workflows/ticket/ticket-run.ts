// What the parts of one ticket workflow run share: its start input, the state it carries
// across continue-as-new, the change lock, and the activity stubs (ticket.workflow.ts
// holds the main loop, ticket-creation.ts the creation, ticket-changes.ts the updates,
// ticket-timers.ts the deadlines).
import { proxyActivities, proxyLocalActivities, type ApplicationFailure } from '@temporalio/workflow';
import type { TimerFacts } from '../../domain/tickets/rules';
import type { TicketActivities } from './activities.contract';
import type { CreatedReply, CreateTicketInput } from './contract';

// Storing the ticket is a few milliseconds of Postgres: local activities run it inside
// the workflow task, without a round trip through the server per step, which is what
// makes creates and updates fast. Triage and email stay ordinary activities.
export const storage = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
// Creation gives up after ~6 s so a ticket that could not be stored ends its workflow.
export const creation = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumAttempts: 6 },
});
export const side = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 5 },
});
// Triage of tickets created through the outbox: retried for as long as an outage may last.
export const triage = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  scheduleToCloseTimeout: '6 hours',
  // at most 10 s between attempts: once PostgreSQL is back, triage follows within seconds
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** What survives continue-as-new (ids, numbers and statuses: never the ticket's text). */
export interface CarriedState {
  facts: TimerFacts;
  version: number;
  assigneeId: string | null;
  workspaceId: string;
}

/** The mutable state of one run, shared by its handlers, its creation and its timers. */
export interface TicketRun {
  readonly input: CreateTicketInput;
  /** null until the ticket is stored (or its settings are loaded) */
  state: CarriedState | null;
  /** the answer of the `created` update, once there is one */
  created: CreatedReply | null;
  creationFailure: ApplicationFailure | null;
  deleted: boolean;
  /** the change lock: one step at a time */
  busy: boolean;
}

export function newTicketRun(input: CreateTicketInput, carried?: CarriedState): TicketRun {
  return {
    input,
    state: carried ?? null,
    created: carried ? { ticketId: input.ticketId, version: 1 } : null,
    creationFailure: null,
    deleted: false,
    busy: false,
  };
}
