// Privacy-law erasure of a player (DELETE /v1/players/{id}). Everything happens in one
// transaction, so an erasure is either complete or did not happen; nothing keeps the
// purged values, so it cannot be undone.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/db';
import { ERASED_PREFIX } from './schema';

/** What an erased event payload becomes (events.data is NOT NULL). */
export const ERASED_EVENT_DATA = { erased: true };

/**
 * Erases the live player `id`; false when it is absent or already erased (a
 * concurrent erasure won), which the route answers with 404.
 *
 * - the profile: display name, email and metadata purged, erased_at set, and
 *   player_id renamed to an anonymous `erased_<random>` token, which frees the
 *   (workspace_id, player_id) key so a later upsert creates a fresh profile;
 * - tickets keep existing but lose the link: player_ref NULL, player_id = token;
 * - player-authored messages on those tickets, audit rows whose actor was the
 *   player, and notification recipients (the player's address) get the token;
 * - outbox events naming the player lose their payload, and so do the webhook
 *   deliveries (log and pending retries) made from those events;
 * - remembered idempotent responses that carry the profile are forgotten, so an
 *   Idempotency-Key replay cannot bring the purged values back.
 */
export async function erasePlayer(db: Db, id: string): Promise<boolean> {
  const token = `${ERASED_PREFIX}${randomBytes(16).toString('hex')}`;
  return db.tx(async (q) => {
    // The row lock serialises concurrent erasures and upserts of the same player.
    const { rows } = await q.query<{ workspace_id: string; player_id: string }>(
      'SELECT workspace_id, player_id FROM players WHERE id = $1 AND erased_at IS NULL FOR UPDATE',
      [id],
    );
    if (!rows[0]) return false;
    const { workspace_id: workspaceId, player_id: playerId } = rows[0];

    await q.query(
      `UPDATE players SET player_id = $2, display_name = NULL, email = NULL, metadata = '{}', erased_at = now()
        WHERE id = $1`,
      [id, token],
    );
    const tickets = await q.query<{ id: string }>(
      'UPDATE tickets SET player_ref = NULL, player_id = $2 WHERE player_ref = $1 RETURNING id',
      [id, token],
    );
    const ticketIds = tickets.rows.map((t) => t.id);
    if (ticketIds.length) {
      await q.query(
        `UPDATE messages SET author_id = $2 WHERE ticket_id = ANY($1::text[]) AND author_type = 'player'`,
        [ticketIds, token],
      );
      await q.query('UPDATE ticket_audit SET actor = $2 WHERE ticket_id = ANY($1::text[]) AND actor IN ($3, $4)', [
        ticketIds,
        token,
        playerId,
        id,
      ]);
      await q.query(`UPDATE notifications SET recipient = $2 WHERE ticket_id = ANY($1::text[])`, [ticketIds, token]);
    }
    // Events about the profile (subject) and events whose payload names the player:
    // ticket.* carry playerId, message.created carries the player as author.
    const erased = await q.query<{ id: string }>(
      `UPDATE events SET data = $4::jsonb
        WHERE subject_id = $1
           OR (workspace_id = $2 AND (
                data->>'playerId' IN ($3, $1)
             OR (data->>'authorType' = 'player' AND data->>'authorId' IN ($3, $1))))
        RETURNING id`,
      [id, workspaceId, playerId, JSON.stringify(ERASED_EVENT_DATA)],
    );
    // The webhook delivery log stores each envelope as sent: those events' `data` goes
    // too, in the log and in deliveries still waiting for a retry (they send the erased form).
    if (erased.rows.length) {
      await q.query(
        `UPDATE webhook_deliveries SET body = jsonb_set(body::jsonb, '{data}', $2::jsonb)::text WHERE event_id = ANY($1::text[])`,
        [erased.rows.map((r) => r.id), JSON.stringify(ERASED_EVENT_DATA)],
      );
    }
    await q.query(`DELETE FROM idempotency_keys WHERE response->>'id' = $1`, [id]);
    return true;
  });
}
