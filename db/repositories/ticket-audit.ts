// ticket_audit: one row per lifecycle change of a ticket.
import { In } from 'typeorm';
import { TicketAudit } from '../entities';
import { managerOf, type Executor } from '../db';

export async function appendAudit(
  executor: Executor,
  a: { ticketId: string; action: string; actor: string | null; note: string | null; data: unknown; at: string | Date },
): Promise<void> {
  const { at, ...rest } = a;
  await managerOf(executor).insert(TicketAudit, { ...rest, data: rest.data as object, createdAt: new Date(at) });
}

/** Player erasure: entries whose actor named the player get the erasure token. */
export async function anonymiseAuditActors(executor: Executor, ticketIds: string[], actors: string[], token: string): Promise<void> {
  await managerOf(executor).update(TicketAudit, { ticketId: In(ticketIds), actor: In(actors) }, { actor: token });
}
