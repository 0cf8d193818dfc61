// ticket_usage: tickets created per organization and UTC month (the monthly quota).
import { TicketUsage } from '../entities';
import { managerOf, sql, type Executor } from '../db';

/** Tickets counted so far in `month`; 0 before the first. */
export async function ticketsCreatedIn(executor: Executor, organizationId: string, month: string): Promise<number> {
  const row = await managerOf(executor).findOne(TicketUsage, { where: { organizationId, month } });
  return row?.count ?? 0;
}

/** Sets the month's count as given (a month already used, for tests of the quota). */
export async function setTicketsCreatedIn(executor: Executor, organizationId: string, month: string, count: number): Promise<void> {
  await managerOf(executor).upsert(TicketUsage, { organizationId, month, count }, ['organizationId', 'month']);
}

/**
 * Counts one ticket unless the month is at `limit` (null: no limit), atomically: the
 * conditional upsert takes the row lock, and a concurrent one re-reads the count that the
 * first committed, so of two creates at the limit exactly one is counted. Call it inside
 * the ticket's insert transaction: a refused ticket rolls back, a counted one commits with
 * its row. True when counted.
 */
export async function countTicketWithinQuota(
  executor: Executor,
  organizationId: string,
  month: string,
  limit: number | null,
): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `INSERT INTO ticket_usage AS u (organization_id, month, count) VALUES ($1, $2, 1)
     ON CONFLICT (organization_id, month) DO UPDATE SET count = u.count + 1
     WHERE $3::integer IS NULL OR u.count < $3
     RETURNING u.count`,
    [organizationId, month, limit],
  );
  return rows.length === 1;
}
