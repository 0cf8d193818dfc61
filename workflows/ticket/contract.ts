// What the API and tests may know about the ticket workflow: its id, queue, input,
// updates and query. The API imports this file, never the implementation. The record
// types live in domain/tickets/types.ts; the ones the workflow's callers pass are
// re-exported here.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  Actor,
  AssignChange,
  CreateTicketInput,
  MessageChange,
  PatchChange,
  ResolveChange,
  TicketStatus,
} from '../../domain/tickets/types';
import type { WorkflowStartEntry } from '../start-entry';

export type {
  Actor,
  AssignChange,
  CreateTicketInput,
  MessageChange,
  PatchChange,
  ResolveChange,
  Source,
  TicketFacts,
  TicketStatus,
} from '../../domain/tickets/types';

export const TICKETING_QUEUE = 'ticketing';
export const TICKET_WORKFLOW_TYPE = 'ticketWorkflow';
export const ticketWorkflowId = (ticketId: string) => `ticket/${ticketId}`;
/**
 * A short run under the same id for a ticket whose lifecycle workflow has ended (a closed
 * ticket): it applies the one change such a ticket still takes, deletion.
 */
export const ENDED_TICKET_WORKFLOW_TYPE = 'endedTicketWorkflow';

export interface EndedTicketInput {
  ticketId: string;
  /** the stored status and step number, read by the API just before */
  status: TicketStatus;
  version: number;
}

/**
 * The reply of every change update: which step was applied and the status after it.
 * The API reads the row (and the message) from Postgres once the update returns, so
 * no history carries the record.
 */
export interface ChangeReply {
  ticketId: string;
  /** the step number the change was stored as (`tickets.version`) */
  version: number;
  status: TicketStatus;
  /** resolve only: whether the SMTP server accepted the resolution email */
  notificationSent?: boolean;
}

/** The reply of `created`: the ticket row exists at this version (1). */
export interface CreatedReply {
  ticketId: string;
  version: number;
}

/** Resolves once the ticket row exists (used with update-with-start by POST /v1/tickets). */
export const createdUpdate = defineUpdate<CreatedReply>('created');
export const patchUpdate = defineUpdate<ChangeReply, [PatchChange, Actor]>('patch');
export const assignUpdate = defineUpdate<ChangeReply, [AssignChange, Actor]>('assign');
export const resolveUpdate = defineUpdate<ChangeReply, [ResolveChange, Actor]>('resolve');
export const messageUpdate = defineUpdate<ChangeReply, [MessageChange, Actor]>('addMessage');
export const deleteUpdate = defineUpdate<{ deleted: true }, [Actor]>('delete');

export interface TicketWorkflowState {
  status: TicketStatus;
  version: number;
  nextDeadline: { kind: string; at: string } | null;
}
export const stateQuery = defineQuery<TicketWorkflowState | null>('state');

/** A new ticket's entry in the workflow-start outbox: `ticket/<id>` with its input and, when the input asks for them, its search attributes. */
export function ticketWorkflowStart(input: CreateTicketInput): WorkflowStartEntry<CreateTicketInput> {
  return {
    workflowId: ticketWorkflowId(input.ticketId),
    workflowType: TICKET_WORKFLOW_TYPE,
    taskQueue: TICKETING_QUEUE,
    args: [input],
    searchAttributes: input.searchAttributes
      ? { WorkspaceId: [input.workspaceId], TicketStatus: ['open'], TicketPriority: [input.priority] }
      : undefined,
  };
}
