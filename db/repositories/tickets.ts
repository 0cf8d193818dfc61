import type { MessageRecord, TicketRecord } from '../../workflows/ticket/contract';
import { sql, type Executor, type Queryable } from '../db';

// Columns aliased to the API's field names, so a row is already a TicketRecord.
export const TICKET_COLUMNS = `
  t.id, t.workspace_id AS "workspaceId", t.player_id AS "playerId", t.player_ref AS "playerRef",
  t.title, t.body, t.status, t.priority, t.category, t.source, t.tags, t.metadata,
  t.assignee_id AS "assigneeId", t.ai_triaged AS "aiTriaged", t.ai_suggested_category AS "aiSuggestedCategory",
  t.ai_confidence AS "aiConfidence", t.ai_suggested_reply AS "aiSuggestedReply",
  t.internal_note AS "internalNote", t.resolution_note AS "resolutionNote", t.message_count AS "messageCount",
  t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.resolved_at AS "resolvedAt",
  t.closed_at AS "closedAt", t.first_response_at AS "firstResponseAt"`;

export const MESSAGE_COLUMNS = `m.id, m.ticket_id AS "ticketId", m.author_id AS "authorId", m.author_type AS "authorType",
  m.body, m.created_at AS "createdAt"`;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));

/** Dates become ISO strings: records cross Temporal as JSON and are served as JSON. */
export function toTicketRecord(row: any): TicketRecord {
  return {
    ...row,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    resolvedAt: iso(row.resolvedAt),
    closedAt: iso(row.closedAt),
    firstResponseAt: iso(row.firstResponseAt),
  };
}

export function toMessageRecord(row: any): MessageRecord {
  return { ...row, createdAt: iso(row.createdAt) };
}

export async function findTicket(db: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<TicketRecord | null> {
  const { rows } = await db.query(
    `SELECT ${TICKET_COLUMNS}, t.version FROM tickets t WHERE t.id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toTicketRecord(rows[0]) : null;
}

export async function listMessages(db: Queryable, ticketId: string): Promise<MessageRecord[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.ticket_id = $1 ORDER BY m.created_at, m.id`, [
    ticketId,
  ]);
  return rows.map(toMessageRecord);
}

/** Player erasure: the player's tickets lose the reference and carry the token as playerId; their ids. */
export async function detachPlayerTickets(executor: Executor, playerRef: string, token: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    executor,
    'UPDATE tickets SET player_ref = NULL, player_id = $2 WHERE player_ref = $1 RETURNING id',
    [playerRef, token],
  );
  return rows.map((r) => r.id);
}
