import type { AgentRow } from './repository';
import type { AgentResponse, AssigneeResponse } from './schema';

export function presentAgent(row: AgentRow): AgentResponse {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    email: row.email,
    avatarUrl: row.avatar_url,
    createdAt: row.created_at.toISOString(),
  };
}

/** The Agent as Document 1 shows it expanded in a ticket's `assignee`; null when unassigned. */
export function presentAssignee(row: AgentRow | null | undefined): AssigneeResponse | null {
  return row ? { id: row.id, name: row.name, avatarUrl: row.avatar_url } : null;
}
