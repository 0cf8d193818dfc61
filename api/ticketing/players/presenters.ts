import type { PlayerTicketRow } from '../../../db/repositories/players';
import type { PlayerRow } from '../../../domain/players/types';
import { playerEventData } from '../../../domain/players/events';
import type { PlayerExpansion, PlayerResponse, PlayerTicketItem } from './schema';
import { iso } from '../../kit/dates';

/** The Player object of the ticketing spec (the same object is the player.created event's data). */
export function presentPlayer(row: PlayerRow): PlayerResponse {
  return playerEventData(row);
}

/**
 * The ticketing spec does not say where these live. The upsert accepts only displayName,
 * email and metadata, so they are read from metadata keys of the same names
 * (docs/players.md); lifetimeSpend is typed number there, so it is parsed and is
 * null when absent or not a finite number.
 */
function spendOf(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const n = Number(raw.trim());
  return Number.isFinite(n) ? n : null;
}

/**
 * The `player` object on single-ticket retrieval. null for an erased player (the
 * ticket's player_ref is null then), so the ticket view can pass the lookup straight in.
 */
export function presentPlayerExpansion(row: PlayerRow | null | undefined): PlayerExpansion | null {
  if (!row || row.erased_at) return null;
  const m = row.metadata ?? {};
  return {
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    platform: m.platform ?? null,
    steamId: m.steamId ?? null,
    accountAge: m.accountAge ?? null,
    lifetimeSpend: spendOf(m.lifetimeSpend),
    loyaltyTier: m.loyaltyTier ?? null,
  };
}

export function presentPlayerTicket(row: PlayerTicketRow): PlayerTicketItem {
  return { id: row.id, title: row.title, status: row.status as PlayerTicketItem['status'], createdAt: iso(row.createdAt) };
}
