import type { Queryable } from '../../db/db';
import { newId } from '../../lib/ids';
import type { MessageRecord, TicketRecord } from '../../workflows/ticket/contract';

export type EventType =
  | 'ticket.created'
  | 'ticket.assigned'
  | 'ticket.resolved'
  | 'ticket.closed'
  | 'message.created'
  | 'player.created'
  | 'sla.breached';

/**
 * Appends to the events outbox inside the caller's transaction. `dedupeKey` comes from
 * the workflow step, so a retried activity records its event once.
 */
export async function recordEvent(
  db: Queryable,
  e: { workspaceId: string; type: EventType; subjectId: string; data: unknown; at: string; dedupeKey: string },
): Promise<void> {
  await db.query(
    `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (dedupe_key) DO NOTHING`,
    [newId('evt'), e.workspaceId, e.type, e.subjectId, JSON.stringify(e.data), e.at, e.dedupeKey],
  );
}

/** `data` of ticket.* events: the ticket as the API shows it, without agent-only notes. */
export function ticketEventData(t: TicketRecord) {
  const { internalNote, resolutionNote, playerRef, firstResponseAt, aiSuggestedReply, ...rest } = t as TicketRecord & {
    version?: number;
  };
  delete (rest as any).version;
  return rest;
}

export function messageEventData(m: MessageRecord) {
  return m;
}
