// The upsert of a player profile: the profile and its `player.created` outbox event
// commit together, so a webhook can never announce a player that was rolled back
// and a created player is never missing its event.
import type { Db, Executor } from '../../db/db';
import { recordEvent } from '../../db/repositories/events';
import { upsertPlayerRow, type UpsertPlayerInput } from '../../db/repositories/players';
import { newId } from '../../lib/ids';
import { playerErased } from './errors';
import type { PlayerRow } from './types';
import { playerEventData } from './events';

export async function upsertPlayer(
  db: Db,
  input: Omit<UpsertPlayerInput, 'id'>,
): Promise<{ row: PlayerRow; created: boolean }> {
  return db.transaction(async (m) => {
    const result = await upsertPlayerRow(m, { ...input, id: newId('kpl') });
    // Unreachable while the `erased_` prefix is reserved; kept as a clear answer
    // instead of silently reviving an erased row.
    if (!result) throw playerErased(input.playerId);
    if (result.created) await recordPlayerCreated(m, result.row);
    return result;
  });
}

async function recordPlayerCreated(executor: Executor, row: PlayerRow): Promise<void> {
  // dedupe_key makes the event exactly-once per profile even if this ever re-runs.
  await recordEvent(executor, {
    workspaceId: row.workspace_id,
    type: 'player.created',
    subjectId: row.id,
    data: playerEventData(row),
    at: row.first_seen_at,
    dedupeKey: `player.created:${row.id}`,
  });
}
