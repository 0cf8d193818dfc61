import { platformTicketData } from '../../../domain/platform/ticket-events';
import type { PlatformReplyRecord, PlatformTicketRecord } from '../../../domain/platform/types';
import { iso } from '../../kit/dates';
import type { Reply, Ticket } from './schema';

/** A ticket as the API and its events show it (domain/platform/ticket-events.ts: one shape for both). */
export const presentTicket = (t: PlatformTicketRecord): Ticket => platformTicketData(t);

export function presentReply(r: PlatformReplyRecord): Reply {
  return { id: r.id, ticket_id: r.ticketId, author_id: r.authorId, body: r.body, created_at: iso(r.createdAt) };
}
