// The soft delete's end, run by the ticket workflow's 30-day timer (docs/platform.md,
// "Tickets"): the row goes for good, its replies with it (ON DELETE CASCADE).
import type { Db } from '../../db/db';
import { findPlatformTicket, purgePlatformTicketRow } from '../../db/repositories/platform-tickets';

/**
 * The soft delete's end (the workflow's 30-day timer): the row goes for good, its replies
 * with it. `purged` also when it is gone already (a purged workspace took it);
 * `restored` when it is no longer deleted (the workflow never asks then).
 */
export async function purgePlatformTicket(db: Db, ticketId: string): Promise<'purged' | 'restored'> {
  if (await purgePlatformTicketRow(db, ticketId)) return 'purged';
  return (await findPlatformTicket(db, ticketId)) ? 'restored' : 'purged';
}
