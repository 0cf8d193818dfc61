import type { Db } from '../../../db/db';
import { errors } from '../../errors';

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
