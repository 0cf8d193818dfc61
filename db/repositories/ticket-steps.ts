// ticket_steps: the key of the change each stored lifecycle step of a ticket was
// (domain/tickets/apply-change.ts). Read and written inside the step's transaction,
// with the ticket row locked.
import { MoreThanOrEqual } from 'typeorm';
import { TicketStep } from '../entities';
import { managerOf, type Executor } from '../db';

/** The step a change (by its key) was stored as; null when it has not been stored. */
export async function stepOfKey(executor: Executor, ticketId: string, key: string): Promise<number | null> {
  const row = await managerOf(executor).findOne(TicketStep, { select: { version: true }, where: { ticketId, stepKey: key } });
  return row?.version ?? null;
}

/** The logged steps from `version` on, in order (none for steps stored before the log). */
export async function stepsFrom(executor: Executor, ticketId: string, version: number): Promise<Array<{ version: number; key: string }>> {
  const rows = await managerOf(executor).find(TicketStep, {
    select: { version: true, stepKey: true },
    where: { ticketId, version: MoreThanOrEqual(version) },
    order: { version: 'ASC' },
  });
  return rows.map((r) => ({ version: r.version, key: r.stepKey }));
}

export async function logStep(executor: Executor, ticketId: string, version: number, key: string): Promise<void> {
  await managerOf(executor).insert(TicketStep, { ticketId, version, stepKey: key });
}
