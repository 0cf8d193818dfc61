// Tickets as the API answers them, each typed as the response schema the OpenAPI
// document shows (./schema.ts), so a presenter and its documented answer cannot drift.
import type { MessageRecord, TicketRecord } from '../../../domain/tickets/types';
import type { AssigneeResponse } from '../agents/schema';
import type { PlayerExpansion } from '../players/schema';
import type {
  Message,
  Ticket,
  TicketAssignment,
  TicketChanges,
  TicketDetail,
  TicketListItem,
  TicketResolution,
} from './schema';

export function presentListItem(t: TicketRecord): TicketListItem {
  return {
    id: t.id,
    workspaceId: t.workspaceId,
    playerId: t.playerId,
    title: t.title,
    status: t.status,
    priority: t.priority,
    category: t.category,
    source: t.source,
    tags: t.tags,
    assigneeId: t.assigneeId,
    aiTriaged: t.aiTriaged,
    messageCount: t.messageCount,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** The create response: every ticket field but `aiSuggestedReply` and `messages`. */
export function presentTicket(t: TicketRecord, assignee: AssigneeResponse | null = null): Ticket {
  return {
    ...presentListItem(t),
    body: t.body,
    metadata: t.metadata,
    assignee,
    aiSuggestedCategory: t.aiSuggestedCategory,
    aiConfidence: t.aiConfidence,
    resolvedAt: t.resolvedAt,
    closedAt: t.closedAt,
  };
}

export function presentMessage(m: MessageRecord): Message {
  return { id: m.id, ticketId: m.ticketId, authorId: m.authorId, authorType: m.authorType, body: m.body, createdAt: m.createdAt };
}

/** Single-ticket retrieval; agent-only notes are left out for player-bound (sdk) keys. */
export function presentTicketDetail(
  t: TicketRecord,
  extra: { assignee: AssigneeResponse | null; messages: MessageRecord[]; player: PlayerExpansion | null; forPlayer: boolean },
): TicketDetail {
  return {
    ...presentTicket(t, extra.assignee),
    aiSuggestedReply: t.aiSuggestedReply,
    messages: extra.messages.map(presentMessage),
    player: extra.player,
    ...(extra.forPlayer ? {} : { internalNote: t.internalNote, resolutionNote: t.resolutionNote }),
  };
}

export const presentPatch = (t: TicketRecord): TicketChanges => ({
  id: t.id,
  status: t.status,
  priority: t.priority,
  category: t.category,
  assigneeId: t.assigneeId,
  tags: t.tags,
  internalNote: t.internalNote,
  updatedAt: t.updatedAt,
});

/**
 * The answers of assign and resolve show the row as read after the update returned. A
 * change that lands in between (an unassign, a player reply re-opening the ticket) shows
 * too, so the fields the document pins (`assigneeId` set; `status: resolved` and
 * `resolvedAt` set) are typed as the row has them; every other field is the schema's.
 */
type AsStored<T, K extends keyof T & keyof TicketRecord> = Omit<T, K> & Pick<TicketRecord, K>;

export const presentAssign = (t: TicketRecord, assignee: AssigneeResponse): AsStored<TicketAssignment, 'assigneeId'> => ({
  id: t.id,
  assigneeId: t.assigneeId,
  assignee,
  status: t.status,
  internalNote: t.internalNote,
  updatedAt: t.updatedAt,
});

export const presentResolve = (t: TicketRecord, notificationSent: boolean): AsStored<TicketResolution, 'status' | 'resolvedAt'> => ({
  id: t.id,
  status: t.status,
  resolutionNote: t.resolutionNote,
  notificationSent,
  resolvedAt: t.resolvedAt,
  updatedAt: t.updatedAt,
});
