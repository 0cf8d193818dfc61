import type { MessageRecord, TicketRecord } from '../../domain/tickets/types';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Ticket } from '../entities';
import { managerOf, sql, type Executor, type SqlExecutor } from '../db';

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

export async function findTicket(executor: SqlExecutor, id: string, opts: { forUpdate?: boolean } = {}): Promise<TicketRecord | null> {
  const { rows } = await sql(executor, 
    `SELECT ${TICKET_COLUMNS}, t.version FROM tickets t WHERE t.id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toTicketRecord(rows[0]) : null;
}

export async function listMessages(executor: SqlExecutor, ticketId: string): Promise<MessageRecord[]> {
  const { rows } = await sql(executor, `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.ticket_id = $1 ORDER BY m.created_at, m.id`, [
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

/** The step a ticket is at, row-locked until the transaction ends; null when there is no such ticket. */
export async function lockTicketVersion(executor: Executor, id: string): Promise<number | null> {
  const row = await managerOf(executor).findOne(Ticket, { select: { id: true, version: true }, where: { id }, lock: { mode: 'pessimistic_write' } });
  return row?.version ?? null;
}

export async function deleteTicket(executor: Executor, id: string): Promise<void> {
  await managerOf(executor).delete(Ticket, { id });
}

export type NewTicketRow = Pick<
  Ticket,
  'id' | 'workspaceId' | 'playerRef' | 'playerId' | 'title' | 'body' | 'priority' | 'priorityRank' | 'category' | 'source' | 'tags' | 'metadata'
> & { createdAt: string };

/** New tickets, open, at step 1, in one statement: for many rows at once. */
export async function insertTicketRows(executor: Executor, rows: NewTicketRow[]): Promise<void> {
  if (!rows.length) return;
  const open = rows.map((t) => ({ ...t, status: 'open', createdAt: new Date(t.createdAt), updatedAt: new Date(t.createdAt) }));
  await managerOf(executor).insert(Ticket, open as QueryDeepPartialEntity<Ticket>[]);
}

/** A new ticket, open, at step 1. */
export async function insertTicketRow(executor: Executor, t: NewTicketRow): Promise<void> {
  const at = new Date(t.createdAt);
  // jsonb metadata: an open record, which TypeORM's deep-partial type cannot describe
  await managerOf(executor).insert(Ticket, { ...t, status: 'open', createdAt: at, updatedAt: at } as QueryDeepPartialEntity<Ticket>);
}

/**
 * Sets columns by their database names (the lifecycle plan speaks in columns); values
 * are bound as parameters.
 */
export async function updateTicketColumns(executor: Executor, id: string, columns: Record<string, unknown>): Promise<void> {
  const m = managerOf(executor);
  const meta = m.connection.getMetadata(Ticket);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(columns)) {
    const column = meta.findColumnWithDatabaseName(name);
    if (!column) throw new Error(`tickets has no column ${name}`);
    values[column.propertyName] = value;
  }
  await m.update(Ticket, { id }, values);
}

/** What triage reads: the ticket's text and its player's name (the workflow passes only the id). */
export async function ticketForTriage(
  executor: Executor,
  id: string,
): Promise<{ title: string; body: string; category: string | null; name: string | null } | null> {
  const row = await managerOf(executor).findOne(Ticket, {
    select: { id: true, title: true, body: true, category: true, player: { displayName: true } },
    where: { id },
    relations: { player: true },
  });
  return row ? { title: row.title, body: row.body, category: row.category ?? null, name: row.player?.displayName ?? null } : null;
}

/** The four read-only AI fields; a ticket without a category takes the suggested one. */
export async function recordTriage(
  executor: Executor,
  id: string,
  r: { category: string; confidence: number; suggestedReply: string },
): Promise<void> {
  await managerOf(executor)
    .createQueryBuilder()
    .update(Ticket)
    .set({
      aiTriaged: true,
      aiSuggestedCategory: r.category,
      aiConfidence: r.confidence,
      aiSuggestedReply: r.suggestedReply,
      category: () => 'COALESCE(category, :category)',
      updatedAt: () => "date_trunc('milliseconds', now())",
    })
    .where('id = :id', { id, category: r.category })
    .execute();
}

/** What the resolution email needs: the ticket and its player's contact. */
export async function resolutionMailFacts(executor: Executor, id: string) {
  const row = await managerOf(executor).findOne(Ticket, {
    select: { id: true, title: true, source: true, metadata: true, resolutionNote: true, player: { email: true, displayName: true } },
    where: { id },
    relations: { player: true },
  });
  if (!row) return null;
  return {
    title: row.title,
    source: row.source,
    metadata: row.metadata,
    resolutionNote: row.resolutionNote,
    email: row.player?.email ?? null,
    displayName: row.player?.displayName ?? null,
  };
}

/** One message by id (the API answers a new message with it once the workflow has stored it). */
export async function findMessage(executor: Executor, id: string): Promise<MessageRecord | null> {
  const { rows } = await sql(executor, `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = $1`, [id]);
  return rows[0] ? toMessageRecord(rows[0]) : null;
}
