// Player profiles (docs/players.md; the record: domain/players/types.ts). The reads that serve the Player object (with its
// ticketCount) and the race-safe upsert are SQL through the query API; every query here is
// served by an index of the Initial migration (players PK, UNIQUE (workspace_id,
// player_id), tickets_player). Erased rows stay (tickets reference them by id until
// anonymised) but every read here skips them, so an erased profile reads as absent.
import { Player, Ticket } from '../entities';
import type { PlayerRow } from '../../domain/players/types';
import { managerOf, sql, type Executor, type SqlExecutor } from '../db';
import { liveRow, notErased } from '../soft-delete';

export type TicketStatusFilter = 'open' | 'in_progress' | 'resolved' | 'closed' | 'all';

export type PlayerTicketRow = Pick<Ticket, 'id' | 'title' | 'status' | 'createdAt'>;

const COLUMNS = `p.id, p.workspace_id, p.player_id, p.display_name, p.email, p.metadata,
  p.first_seen_at, p.last_seen_at, p.erased_at`;
/** An erased player keeps its row (its tickets point at it) and is absent for every read. */
const LIVE = liveRow('p', 'erased_at');
// tickets_player (player_ref, created_at DESC) makes this an index-only count
const TICKET_COUNT = `(SELECT count(*)::int FROM tickets t WHERE t.player_ref = p.id) AS ticket_count`;

/** A live (not erased) player by internal `kpl_` id, with ticketCount; any workspace. */
export async function findPlayer(executor: SqlExecutor, id: string): Promise<PlayerRow | null> {
  const { rows } = await sql<PlayerRow>(executor, 
    `SELECT ${COLUMNS}, ${TICKET_COUNT} FROM players p WHERE p.id = $1 AND ${LIVE}`,
    [id],
  );
  return rows[0] ?? null;
}

/** A live player by the caller's own playerId within a workspace, with ticketCount. */
export async function lookupPlayer(executor: Executor, workspaceId: string, playerId: string): Promise<PlayerRow | null> {
  const { rows } = await sql<PlayerRow>(executor, 
    `SELECT ${COLUMNS}, ${TICKET_COUNT} FROM players p
      WHERE p.workspace_id = $1 AND p.player_id = $2 AND ${LIVE}`,
    [workspaceId, playerId],
  );
  return rows[0] ?? null;
}

/**
 * For ticket creation: `ref` is either the caller's playerId or a `kpl_` id, always
 * inside `workspaceId`. An exact `kpl_` id match wins over a caller id that happens
 * to look the same. Without ticket_count (the ticket path does not need it).
 */
export async function findPlayerByRef(executor: Executor, workspaceId: string, ref: string): Promise<PlayerRow | null> {
  const { rows } = await sql<PlayerRow>(executor, 
    `SELECT ${COLUMNS} FROM players p
      WHERE p.workspace_id = $1 AND ${LIVE} AND (p.id = $2 OR p.player_id = $2)
      ORDER BY (p.id = $2) DESC LIMIT 1`,
    [workspaceId, ref],
  );
  return rows[0] ?? null;
}

export interface UpsertPlayerInput {
  id: string;
  workspaceId: string;
  playerId: string;
  /** undefined: keep the stored value; null: clear it */
  displayName?: string | null;
  email?: string | null;
  /** replaces the whole stored object when given */
  metadata?: Record<string, string>;
}

/**
 * Race-safe upsert by (workspace_id, player_id): one statement, so two concurrent
 * first calls cannot both insert. `xmax = 0` holds only for a freshly inserted tuple,
 * which tells create from update without a second round trip. Returns null only if
 * the key belongs to an erased row (cannot happen while the `erased_` prefix is
 * reserved, see the schema), never an erased profile brought back to life.
 */
export async function upsertPlayerRow(
  executor: Executor,
  input: UpsertPlayerInput,
): Promise<{ row: PlayerRow; created: boolean } | null> {
  const { rows } = await sql<PlayerRow & { inserted: boolean }>(executor, 
    `INSERT INTO players AS p (id, workspace_id, player_id, display_name, email, metadata, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now())
     ON CONFLICT (workspace_id, player_id) DO UPDATE SET
       display_name = CASE WHEN $7::boolean THEN EXCLUDED.display_name ELSE p.display_name END,
       email        = CASE WHEN $8::boolean THEN EXCLUDED.email ELSE p.email END,
       metadata     = CASE WHEN $9::boolean THEN EXCLUDED.metadata ELSE p.metadata END,
       last_seen_at = GREATEST(p.last_seen_at, now())
     WHERE ${LIVE}
     RETURNING ${COLUMNS}, (p.xmax = 0) AS inserted`,
    [
      input.id,
      input.workspaceId,
      input.playerId,
      input.displayName ?? null,
      input.email ?? null,
      JSON.stringify(input.metadata ?? {}),
      input.displayName !== undefined,
      input.email !== undefined,
      input.metadata !== undefined,
    ],
  );
  const found = rows[0];
  if (!found) return null;
  const { inserted, ...row } = found;
  if (inserted) return { row: { ...row, ticket_count: 0 }, created: true };
  const count = await sql<{ n: number }>(executor, 'SELECT count(*)::int AS n FROM tickets WHERE player_ref = $1', [row.id]);
  return { row: { ...row, ticket_count: count.rows[0].n }, created: false };
}

/** A player's tickets, newest first (tickets_player); total counts every match, not just the page. */
export async function listPlayerTickets(
  executor: Executor,
  playerRef: string,
  opts: { status: TicketStatusFilter; limit: number; offset: number },
): Promise<{ total: number; rows: PlayerTicketRow[] }> {
  const [rows, total] = await managerOf(executor).findAndCount(Ticket, {
    select: { id: true, title: true, status: true, createdAt: true },
    where: { playerRef, ...(opts.status === 'all' ? {} : { status: opts.status }) },
    order: { createdAt: 'DESC', id: 'DESC' },
    take: opts.limit,
    skip: opts.offset,
  });
  return { total, rows };
}

/** For erasure: the live player, row-locked until the transaction ends (serialises erasures and upserts). */
export async function lockLivePlayer(executor: Executor, id: string): Promise<Pick<Player, 'workspaceId' | 'playerId'> | null> {
  return managerOf(executor).findOne(Player, {
    select: { id: true, workspaceId: true, playerId: true },
    where: { id, ...notErased },
    lock: { mode: 'pessimistic_write' },
  });
}

/** Erasure: the profile keeps its row (tickets pointed at it) but no personal data. */
export async function anonymisePlayer(executor: Executor, id: string, token: string): Promise<void> {
  await managerOf(executor).update(
    Player,
    { id },
    { playerId: token, displayName: null, email: null, metadata: {}, erasedAt: () => 'now()' },
  );
}

/**
 * Ticket creation: moves lastSeenAt and takes the player's row lock once; false for an
 * erased or missing player. The lock holds off an erasure until the ticket is stored.
 */
export async function touchPlayerForTicket(executor: Executor, id: string, at: string): Promise<boolean> {
  const { affected } = await managerOf(executor)
    .createQueryBuilder()
    .update(Player)
    .set({ lastSeenAt: () => 'GREATEST(last_seen_at, :at)' })
    .where('id = :id AND erased_at IS NULL', { id, at })
    .execute();
  return affected === 1;
}
