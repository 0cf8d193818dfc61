import type { Db } from '../../../db/db';
import { errors } from '../../errors';
import type { AgentView } from './presenters';

/** The player a new ticket belongs to, by the caller's playerId or the internal kpl_ id. */
export async function findPlayerForTicket(db: Db, workspaceId: string, ref: string): Promise<{ id: string; playerId: string } | null> {
  const { rows } = await db.query(
    `SELECT id, player_id AS "playerId" FROM players
      WHERE workspace_id = $1 AND (player_id = $2 OR id = $2) AND erased_at IS NULL LIMIT 1`,
    [workspaceId, ref],
  );
  return rows[0] ?? null;
}

export async function findAgentView(db: Db, workspaceId: string, agentId: string): Promise<AgentView | null> {
  const { rows } = await db.query('SELECT id, name, avatar_url AS "avatarUrl" FROM agents WHERE id = $1 AND workspace_id = $2', [
    agentId,
    workspaceId,
  ]);
  return rows[0] ?? null;
}

/** The expanded `player` of single-ticket retrieval; profile facts beyond the spec's upsert fields come from metadata. */
export async function playerExpansion(db: Db, playerRef: string | null) {
  if (!playerRef) return null;
  const { rows } = await db.query('SELECT id, display_name, email, metadata FROM players WHERE id = $1', [playerRef]);
  const p = rows[0];
  if (!p) return null;
  const m = (p.metadata ?? {}) as Record<string, string>;
  const spend = m.lifetimeSpend !== undefined ? Number(m.lifetimeSpend) : NaN;
  return {
    id: p.id,
    displayName: p.display_name,
    email: p.email,
    platform: m.platform ?? null,
    steamId: m.steamId ?? null,
    accountAge: m.accountAge ?? null,
    lifetimeSpend: Number.isFinite(spend) ? spend : null,
    loyaltyTier: m.loyaltyTier ?? null,
  };
}

export const MONTHLY_TICKET_QUOTA = { starter: 5_000, growth: 50_000, scale: Infinity } as const;

/**
 * The plan's monthly ticket quota (UTC calendar month, per organization). Over it,
 * creation is refused with 429 `ticket_quota_exceeded` and a Retry-After that points
 * at the start of next month.
 */
export async function checkTicketQuota(db: Db, organizationId: string, plan: keyof typeof MONTHLY_TICKET_QUOTA, now = new Date()) {
  const limit = MONTHLY_TICKET_QUOTA[plan];
  if (!Number.isFinite(limit)) return;
  const month = now.toISOString().slice(0, 7);
  const { rows } = await db.query('SELECT count FROM ticket_usage WHERE organization_id = $1 AND month = $2', [organizationId, month]);
  if ((rows[0]?.count ?? 0) < limit) return;
  const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const err = errors.quotaExceeded(limit);
  err.headers['Retry-After'] = String(Math.ceil((nextMonth - now.getTime()) / 1000));
  throw err;
}
