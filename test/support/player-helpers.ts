// Helpers for the players, agents and settings suites. Tickets and messages are
// written straight into their tables: these suites test reads and erasure of
// ticket history, not ticket creation (that goes through its workflow elsewhere).
import type { Db } from '../../db/db';
import { newId } from '../../lib/ids';
import { PRIORITY_RANK } from '../../workflows/ticket/ticket.logic';

export async function insertTicket(
  db: Db,
  t: {
    workspaceId: string;
    playerRef: string | null;
    playerId: string;
    status?: 'open' | 'in_progress' | 'resolved' | 'closed';
    title?: string;
    createdAt?: Date;
  },
): Promise<string> {
  const id = newId('tkt');
  const at = t.createdAt ?? new Date();
  await db.query(
    `INSERT INTO tickets (id, workspace_id, player_ref, player_id, title, body, status, priority, priority_rank,
                          source, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'body text', $6, 'medium', $7, 'api', $8, $8)`,
    [id, t.workspaceId, t.playerRef, t.playerId, t.title ?? `Ticket ${id}`, t.status ?? 'open', PRIORITY_RANK.medium, at],
  );
  return id;
}

export async function insertMessage(
  db: Db,
  ticketId: string,
  authorType: 'player' | 'agent',
  authorId: string,
  body = 'hello',
): Promise<string> {
  const id = newId('msg');
  await db.query(
    'INSERT INTO messages (id, ticket_id, author_id, author_type, body, created_at) VALUES ($1, $2, $3, $4, $5, now())',
    [id, ticketId, authorId, authorType, body],
  );
  return id;
}

export async function insertEvent(
  db: Db,
  e: { workspaceId: string; type: string; subjectId: string | null; data: object },
): Promise<string> {
  const id = newId('evt');
  await db.query(
    `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key)
     VALUES ($1, $2, $3, $4, $5, now(), $6)`,
    [id, e.workspaceId, e.type, e.subjectId, JSON.stringify(e.data), `${e.type}:${id}`],
  );
  return id;
}

/** Asserts the ticketing error envelope `{ error: { code, message, status, requestId } }`. */

let playerSeq = 0;
/** A caller playerId no other test (or test process) uses. */
export const uniquePlayerId = () => `plr_${process.pid}_${Date.now()}_${playerSeq++}`;
