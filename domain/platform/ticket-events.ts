// What a platform ticket looks like outside: the API's answers and the `data` of its
// ticket.* events (webhooks, part 2) are the same snake_case object, so a receiver sees
// what GET /tickets/{id} shows. Pure.
import type { PlatformTicketRecord } from './types';

export interface PlatformTicketData {
  id: string;
  workspace_id: string;
  channel_id: string;
  subject: string;
  body: string;
  contact_email: string;
  priority: PlatformTicketRecord['priority'];
  status: PlatformTicketRecord['status'];
  assignee_id: string | null;
  tags: string[];
  created_by: string | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  closed_at: string | null;
}

const iso = (at: Date | string) => new Date(at).toISOString();
const isoOrNull = (at: Date | string | null) => (at === null ? null : iso(at));

export function platformTicketData(t: PlatformTicketRecord): PlatformTicketData {
  return {
    id: t.id,
    workspace_id: t.workspaceId,
    channel_id: t.channelId,
    subject: t.subject,
    body: t.body,
    contact_email: t.contactEmail,
    priority: t.priority,
    status: t.status,
    assignee_id: t.assigneeId,
    tags: t.tags,
    created_by: t.createdBy,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    resolved_at: isoOrNull(t.resolvedAt),
    closed_at: isoOrNull(t.closedAt),
  };
}
