// The platform ticket's lifecycle rules (docs/platform.md, "Tickets"): which status may
// follow which, and which change a ticket takes in its state. Pure: the API checks a
// change against the stored row with them, the ticket workflow's Update validators check
// it against the run's state with the same functions, so both refuse with the same
// DomainError (409 conflict, 404 not_found, 410 gone).
import type { DomainError } from '../errors';
import { platformConflict, platformGone, platformNotFound } from './errors';
import type { PlatformTicketStatus } from './types';
import { isWithin } from './windows.rules';

/**
 * The transition table. A status may always be "moved" to itself (nothing changes); closed
 * is terminal: no change of any field is taken once a ticket is closed.
 *
 * | from     | to                        |
 * |----------|---------------------------|
 * | open     | pending, resolved, closed |
 * | pending  | open, resolved, closed    |
 * | resolved | open (reopen), closed     |
 * | closed   | — (terminal)              |
 */
export const PLATFORM_TICKET_TRANSITIONS: Readonly<Record<PlatformTicketStatus, readonly PlatformTicketStatus[]>> = Object.freeze({
  open: ['pending', 'resolved', 'closed'],
  pending: ['open', 'resolved', 'closed'],
  resolved: ['open', 'closed'],
  closed: [],
});

/** Whether `to` may follow `from` (the same status is allowed, except on a closed ticket). */
export function canMove(from: PlatformTicketStatus, to: PlatformTicketStatus): boolean {
  if (from === 'closed') return false;
  return from === to || PLATFORM_TICKET_TRANSITIONS[from].includes(to);
}

/** The kinds of change a ticket takes (PATCH, PUT reply, DELETE, POST restore). */
export type PlatformTicketChangeKind = 'patch' | 'reply' | 'delete' | 'restore';

/** What the checks need of a ticket: its status and its soft delete. */
export interface PlatformTicketStanding {
  status: PlatformTicketStatus;
  /** ms or null: the soft delete's restore window closes then */
  purgeAt: number | null;
  deleted: boolean;
}

/**
 * The refusal of `kind` for a ticket in `t` at `now` (ms), or null when it is taken.
 * - a soft-deleted ticket is hidden: every change but restore is its 404; restore after
 *   its 30 days is 410 gone;
 * - restore of a ticket that is not deleted: 409;
 * - a closed ticket takes deletion only (409 for patch and reply);
 * - a status the table does not allow: 409 with `from` and `to`.
 */
export function checkPlatformTicketChange(
  ticketId: string,
  t: PlatformTicketStanding,
  kind: PlatformTicketChangeKind,
  now: number,
  requested?: PlatformTicketStatus,
): DomainError | null {
  if (t.deleted) {
    if (kind !== 'restore') return platformNotFound('ticket', ticketId);
    if (t.purgeAt !== null && !isWithin(new Date(now), new Date(t.purgeAt))) {
      return platformGone(`Ticket '${ticketId}' was deleted more than 30 days ago and can no longer be restored`);
    }
    return null;
  }
  if (kind === 'restore') return platformConflict(`Ticket '${ticketId}' is not deleted`);
  if (kind === 'delete') return null;
  if (t.status === 'closed') return platformConflict(`Ticket '${ticketId}' is closed; a closed ticket takes no more changes`, { status: 'closed' });
  if (kind === 'patch' && requested !== undefined && !canMove(t.status, requested)) {
    return platformConflict(`A ticket cannot move from '${t.status}' to '${requested}'`, { from: t.status, to: requested });
  }
  return null;
}

/** Whether a deactivated user's unassignment applies: still theirs, and open or pending. */
export const unassignApplies = (t: { status: PlatformTicketStatus; assigneeId: string | null }, userId: string): boolean =>
  t.assigneeId === userId && (t.status === 'open' || t.status === 'pending');
