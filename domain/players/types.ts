// Record types the player code shares: the routes, the commands and the repositories.

/** A player profile as stored (snake_case: the reads return the SQL row as it is). */
export interface PlayerRow {
  id: string;
  workspace_id: string;
  player_id: string;
  display_name: string | null;
  email: string | null;
  metadata: Record<string, string>;
  first_seen_at: Date;
  last_seen_at: Date;
  erased_at: Date | null;
  /** tickets across all statuses; filled by the reads that serve the Player object */
  ticket_count?: number;
}
