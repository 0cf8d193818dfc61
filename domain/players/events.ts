import type { PlayerRow } from './types';

const iso = (d: Date) => d.toISOString();

/** `data` of the player.created event: the Player object as the API shows it (the ticketing spec). */
export function playerEventData(row: PlayerRow) {
  return {
    id: row.id,
    playerId: row.player_id,
    workspaceId: row.workspace_id,
    displayName: row.display_name,
    email: row.email,
    ticketCount: row.ticket_count ?? 0,
    metadata: row.metadata ?? {},
    firstSeenAt: iso(row.first_seen_at),
    lastSeenAt: iso(row.last_seen_at),
  };
}
