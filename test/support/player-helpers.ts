// Helpers for the players, agents and settings suites. Tickets, messages and events are
// written through their repositories straight into their tables: these suites test
// reads and erasure of ticket history, not ticket creation (that goes through its
// workflow elsewhere).
import type { Db } from '../../db/db';
import { recordEvent, type EventType } from '../../db/repositories/events';
import { insertMessage as insertMessageRow } from '../../db/repositories/messages';
import { insertTicketRow, updateTicketColumns } from '../../db/repositories/tickets';
import { newId } from '../../lib/ids';
import { PRIORITY_RANK } from '../../domain/tickets/rules';

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
  const at = (t.createdAt ?? new Date()).toISOString();
  await insertTicketRow(db, {
    id,
    workspaceId: t.workspaceId,
    playerRef: t.playerRef,
    playerId: t.playerId,
    title: t.title ?? `Ticket ${id}`,
    body: 'body text',
    priority: 'medium',
    priorityRank: PRIORITY_RANK.medium,
    category: null,
    source: 'api',
    tags: [],
    metadata: {},
    createdAt: at,
  });
  if (t.status && t.status !== 'open') await updateTicketColumns(db, id, { status: t.status });
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
  await insertMessageRow(db, { id, ticketId, authorId, authorType, body, createdAt: new Date() });
  return id;
}

export async function insertEvent(db: Db, e: { workspaceId: string; type: EventType; subjectId: string; data: object }): Promise<string> {
  const id = newId('evt');
  await recordEvent(db, { id, ...e, at: new Date(), dedupeKey: `${e.type}:${id}` });
  return id;
}

let playerSeq = 0;
/** A caller playerId no other test (or test process) uses. */
export const uniquePlayerId = () => `plr_${process.pid}_${Date.now()}_${playerSeq++}`;
