// Pure rules of a ticket's lifecycle, imported by the workflow, the domain commands and
// the API (and unit-tested without a server). No I/O, no clocks: times come in as numbers.
import type { Priority, SlaTarget } from '../workspaces/types';
import type { TicketStatus } from './types';

export const STATUSES: TicketStatus[] = ['open', 'in_progress', 'resolved', 'closed'];

/**
 * The complete transition matrix (the spec leaves it to us). `closed` is terminal.
 * Moving to the status a ticket already has is a no-op that is allowed, except for
 * `resolved` (resolving twice would send a second notification and event).
 */
export const TRANSITIONS: Record<TicketStatus, TicketStatus[]> = {
  open: ['open', 'in_progress', 'resolved', 'closed'],
  in_progress: ['open', 'in_progress', 'resolved', 'closed'],
  resolved: ['open', 'in_progress', 'closed'],
  closed: [],
};

/** A refused change, with the DomainError kind it is answered as (409, 422). */
export type Rejection =
  | { kind: 'conflict'; type: 'ticket_already_closed'; message: string }
  | { kind: 'unprocessable'; type: 'invalid_status_transition'; message: string };

const closedRejection = (): Rejection => ({
  kind: 'conflict',
  type: 'ticket_already_closed',
  message: 'The ticket is closed; closed tickets cannot be changed',
});
const transitionRejection = (from: TicketStatus, to: TicketStatus): Rejection => ({
  kind: 'unprocessable',
  type: 'invalid_status_transition',
  message: `Cannot move a ticket from '${from}' to '${to}'`,
});

export type ChangeKind = 'patch' | 'assign' | 'resolve' | 'message' | 'delete';

/**
 * Whether a change may be applied to a ticket in `status`. On a closed ticket, asking
 * for another status is an invalid transition (422, the spec's own example: closed →
 * open); every other change is 409 ticket_already_closed. Deleting is always allowed.
 */
export function checkChange(status: TicketStatus, kind: ChangeKind, requestedStatus?: TicketStatus): Rejection | null {
  if (kind === 'delete') return null;
  if (status === 'closed') {
    if (kind === 'patch' && requestedStatus && requestedStatus !== 'closed') return transitionRejection(status, requestedStatus);
    return closedRejection();
  }
  const target = kind === 'resolve' ? 'resolved' : kind === 'patch' ? requestedStatus : undefined;
  if (target && !TRANSITIONS[status].includes(target)) return transitionRejection(status, target);
  return null;
}

/** Status after assignment: open moves to in_progress, others keep theirs. */
export function statusAfterAssign(status: TicketStatus): TicketStatus {
  return status === 'open' ? 'in_progress' : status;
}

/** A player reply re-opens a resolved ticket (to in_progress when someone owns it). */
export function statusAfterMessage(status: TicketStatus, authorType: 'player' | 'agent', assigneeId: string | null): TicketStatus {
  if (status === 'resolved' && authorType === 'player') return assigneeId ? 'in_progress' : 'open';
  return status;
}

export const PRIORITY_RANK: Record<Priority, number> = { low: 1, medium: 2, high: 3, urgent: 4 };

export interface TimerFacts {
  status: TicketStatus;
  priority: Priority;
  createdAt: number;
  resolvedAt: number | null;
  firstResponseAt: number | null;
  autoCloseHours: number;
  sla: Record<Priority, SlaTarget>;
  breached: { first_response: boolean; resolution: boolean };
}

export type Deadline = { kind: 'auto_close' | 'sla_first_response' | 'sla_resolution'; at: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Every pending deadline of a ticket; the workflow sleeps until the earliest. */
export function pendingDeadlines(t: TimerFacts): Deadline[] {
  const out: Deadline[] = [];
  if (t.status === 'closed') return out;
  if (t.status === 'resolved' && t.resolvedAt !== null) {
    out.push({ kind: 'auto_close', at: t.resolvedAt + t.autoCloseHours * HOUR });
  }
  const target = t.sla[t.priority];
  if (!t.breached.first_response && t.firstResponseAt === null && t.status !== 'resolved') {
    out.push({ kind: 'sla_first_response', at: t.createdAt + target.firstResponseMinutes * MINUTE });
  }
  if (!t.breached.resolution && t.status !== 'resolved') {
    out.push({ kind: 'sla_resolution', at: t.createdAt + target.resolutionMinutes * MINUTE });
  }
  return out;
}

export function nextDeadline(t: TimerFacts): Deadline | null {
  const all = pendingDeadlines(t);
  return all.length ? all.reduce((a, b) => (b.at < a.at ? b : a)) : null;
}
