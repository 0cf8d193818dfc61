// What callers know about a platform ticket's workflow (docs/platform.md, "Tickets"): one
// workflow per ticket (`platform-ticket/<id>`), the single writer of its row after the
// create, started from the workflow-start outbox. Inputs, results and replies carry ids
// and versions, never the ticket's text.
// (Foundation: the id, queue and the Update a user's deactivation sends are fixed here so
// the user-deactivation workflow and the ticket workflow agree; the ticket workflow's own
// updates are added beside them.)
import { defineUpdate } from '@temporalio/workflow';

export { PLATFORM_QUEUE } from '../platform-token/contract';
export const PLATFORM_TICKET_WORKFLOW_TYPE = 'platformTicketWorkflow';
export const platformTicketWorkflowId = (ticketId: string) => `platform-ticket/${ticketId}`;

/** The reply of every change: the step it was stored as and the status after it. */
export interface PlatformTicketChangeReply {
  ticketId: string;
  /** platform_tickets.version after the change */
  version: number;
  status: 'open' | 'pending' | 'resolved' | 'closed';
  /** false when the change had nothing to do (e.g. unassign of a ticket no longer theirs) */
  changed: boolean;
}

/**
 * Sent by a user's deactivation (workflows/platform-user): unassigns the ticket if it is
 * still assigned to `userId` and open (not resolved or closed); otherwise changes nothing.
 * Idempotent, so a resumed deactivation may send it again.
 */
export const unassignUserUpdate = defineUpdate<PlatformTicketChangeReply, [{ userId: string }]>('unassignUser');
