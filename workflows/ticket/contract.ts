// What the API and tests may know about the ticket workflow: its id, queue, input,
// updates and query. The API imports this file, never the implementation.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { Priority } from '../../lib/workspace-settings';
import type { TicketStatus } from './ticket.logic';

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

export type Source = 'api' | 'sdk' | 'discord' | 'steam' | 'email';

export interface CreateTicketInput {
  ticketId: string;
  workspaceId: string;
  organizationId: string;
  /** internal player id (kpl_) */
  playerRef: string;
  /** the caller's own player id */
  playerId: string;
  title: string;
  body: string;
  category: string | null;
  priority: Priority;
  source: Source;
  tags: string[];
  metadata: Record<string, unknown>;
  /** ISO time the API accepted the request */
  createdAt: string;
  /** upsert the WorkspaceId/TicketStatus/TicketPriority search attributes (off on servers without them) */
  searchAttributes?: boolean;
  /**
   * The API stored the row at creation (the create outbox, Nov 2026): the workflow only
   * loads the workspace's settings and triages. Absent in histories of earlier tickets,
   * whose workflow inserted the row itself.
   */
  stored?: boolean;
}

/** A ticket as stored: every field of the spec's ticket plus the agent-only notes. */
export interface TicketRecord {
  id: string;
  workspaceId: string;
  playerId: string;
  playerRef: string | null;
  title: string;
  body: string;
  status: TicketStatus;
  priority: Priority;
  category: string | null;
  source: Source;
  tags: string[];
  metadata: Record<string, unknown>;
  assigneeId: string | null;
  aiTriaged: boolean;
  aiSuggestedCategory: string | null;
  aiConfidence: number | null;
  aiSuggestedReply: string | null;
  internalNote: string | null;
  resolutionNote: string | null;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  closedAt: string | null;
  firstResponseAt: string | null;
}

export interface MessageRecord {
  id: string;
  ticketId: string;
  authorId: string;
  authorType: 'player' | 'agent';
  body: string;
  createdAt: string;
}

export type Actor = { keyId: string };

export interface PatchChange {
  status?: TicketStatus;
  priority?: Priority;
  assigneeId?: string | null;
  category?: string;
  tags?: string[];
  internalNote?: string;
}
export interface AssignChange {
  agentId: string;
  note?: string;
}
export interface ResolveChange {
  resolutionNote?: string;
  sendNotification: boolean;
}
export interface MessageChange {
  messageId: string;
  authorType: 'player' | 'agent';
  authorId: string;
  body: string;
}

/**
 * What the workflow keeps of a stored ticket after a step: the fields its timers and
 * search attributes depend on. Never the title, body or notes: every activity result
 * is written into the history, and a body may be 100 k characters.
 */
export interface TicketFacts {
  status: TicketStatus;
  priority: Priority;
  assigneeId: string | null;
  resolvedAt: string | null;
  firstResponseAt: string | null;
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

/** Failure types a validator or handler raises; the API maps them to the spec's codes. */
export const FAILURE_TYPES = ['ticket_already_closed', 'invalid_status_transition', 'creation_failed'] as const;
