import type { MessageRecord, TicketRecord } from '../../../domain/tickets/types';

export interface AgentView {
  id: string;
  name: string;
  avatarUrl: string | null;
}

export function presentListItem(t: TicketRecord) {
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
export function presentTicket(t: TicketRecord, assignee: AgentView | null = null) {
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

export function presentMessage(m: MessageRecord) {
  return { id: m.id, ticketId: m.ticketId, authorId: m.authorId, authorType: m.authorType, body: m.body, createdAt: m.createdAt };
}

/** Single-ticket retrieval; agent-only notes are left out for player-bound (sdk) keys. */
export function presentTicketDetail(
  t: TicketRecord,
  extra: { assignee: AgentView | null; messages: MessageRecord[]; player: unknown; forPlayer: boolean },
) {
  return {
    ...presentTicket(t, extra.assignee),
    aiSuggestedReply: t.aiSuggestedReply,
    messages: extra.messages.map(presentMessage),
    player: extra.player,
    ...(extra.forPlayer ? {} : { internalNote: t.internalNote, resolutionNote: t.resolutionNote }),
  };
}

export const presentPatch = (t: TicketRecord) => ({
  id: t.id,
  status: t.status,
  priority: t.priority,
  category: t.category,
  assigneeId: t.assigneeId,
  tags: t.tags,
  internalNote: t.internalNote,
  updatedAt: t.updatedAt,
});

export const presentAssign = (t: TicketRecord, assignee: AgentView) => ({
  id: t.id,
  assigneeId: t.assigneeId,
  assignee,
  status: t.status,
  internalNote: t.internalNote,
  updatedAt: t.updatedAt,
});

export const presentResolve = (t: TicketRecord, notificationSent: boolean) => ({
  id: t.id,
  status: t.status,
  resolutionNote: t.resolutionNote,
  notificationSent,
  resolvedAt: t.resolvedAt,
  updatedAt: t.updatedAt,
});
