import type { Db } from '../../../db/db';
import { ticketsCreatedIn } from '../../../db/repositories/ticket-usage';
import { MONTHLY_TICKET_QUOTA, usageMonth, type QuotaPlan } from '../../../domain/tickets/quota.rules';
import { errors } from '../errors';

export { MONTHLY_TICKET_QUOTA };

/**
 * The plan's monthly ticket quota (UTC calendar month, per organization). Over it,
 * creation is refused with 429 `ticket_quota_exceeded` and a Retry-After that points
 * at the start of next month. This is the early answer; the count itself is checked
 * and taken atomically in the insert (db/repositories/ticket-usage.ts), so two creates
 * at the limit cannot both pass.
 */
export async function checkTicketQuota(db: Db, organizationId: string, plan: QuotaPlan, now = new Date()) {
  const limit = MONTHLY_TICKET_QUOTA[plan];
  if (!Number.isFinite(limit)) return;
  if ((await ticketsCreatedIn(db, organizationId, usageMonth(now))) < limit) return;
  throw quotaExceeded(limit, now);
}

export function quotaExceeded(limit: number, now = new Date()) {
  const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const err = errors.quotaExceeded(limit);
  err.headers['Retry-After'] = String(Math.ceil((nextMonth - now.getTime()) / 1000));
  return err;
}
