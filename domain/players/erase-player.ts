// Privacy-law erasure of a player (the command behind DELETE /v1/players/{id}). Everything
// happens in one transaction, so an erasure is either complete or did not happen; nothing
// keeps the purged values, so it cannot be undone.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/db';
import { eraseEventsNaming } from '../../db/repositories/events';
import { forgetIdempotentResponsesFor } from '../../db/repositories/idempotency-keys';
import { anonymisePlayerMessages } from '../../db/repositories/messages';
import { anonymiseRecipients } from '../../db/repositories/notifications';
import { anonymisePlayer, lockLivePlayer } from '../../db/repositories/players';
import { anonymiseAuditActors } from '../../db/repositories/ticket-audit';
import { detachPlayerTickets } from '../../db/repositories/tickets';
import { eraseEnvelopeData } from '../../db/repositories/webhook-deliveries';
import { playerNotFound } from './errors';
import { ERASED_EVENT_DATA, ERASED_PREFIX } from './rules';

/**
 * Erases the live player `id`. Refuses with player_not_found when it is absent or
 * already erased (a concurrent erasure won: the profile is gone either way).
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
export async function erasePlayer(db: Db, id: string): Promise<void> {
  const token = `${ERASED_PREFIX}${randomBytes(16).toString('hex')}`;
  await db.transaction(async (m) => {
    const player = await lockLivePlayer(m, id);
    if (!player) throw playerNotFound(id);
    await anonymisePlayer(m, id, token);
    const ticketIds = await detachPlayerTickets(m, id, token);
    if (ticketIds.length) {
      await anonymisePlayerMessages(m, ticketIds, token);
      await anonymiseAuditActors(m, ticketIds, [player.playerId, id], token);
      await anonymiseRecipients(m, ticketIds, token);
    }
    const erased = await eraseEventsNaming(m, { id, workspaceId: player.workspaceId, playerId: player.playerId }, ERASED_EVENT_DATA);
    // The webhook delivery log stores each envelope as sent: those events' `data` goes
    // too, in the log and in deliveries still waiting for a retry (they send the erased form).
    await eraseEnvelopeData(m, erased, ERASED_EVENT_DATA);
    await forgetIdempotentResponsesFor(m, id);
  });
}
