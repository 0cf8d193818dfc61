import type { AgentRecord } from '../../../domain/tickets/types';
import type { AgentResponse, AssigneeResponse } from './schema';
import { iso } from '../../kit/dates';

export function presentAgent(row: AgentRecord): AgentResponse {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    email: row.email,
    avatarUrl: row.avatarUrl,
    createdAt: iso(row.createdAt),
  };
}

/** The Agent as the ticketing spec shows it expanded in a ticket's `assignee`; null when unassigned. */
export function presentAssignee(row: Pick<AgentRecord, 'id' | 'name' | 'avatarUrl'> | null | undefined): AssigneeResponse | null {
  return row ? { id: row.id, name: row.name, avatarUrl: row.avatarUrl } : null;
}
