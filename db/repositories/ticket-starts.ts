// ticket_workflow_starts: the create path's outbox (a ticket whose workflow is not started yet).
import { TicketWorkflowStart } from '../entities';
import { managerOf, sql, type Executor } from '../db';
import type { CreateTicketInput } from '../../workflows/ticket/contract';

/** In the transaction that inserts the ticket row: its workflow is to be started. */
export async function enqueueTicketStart(executor: Executor, input: CreateTicketInput): Promise<void> {
  await managerOf(executor).insert(TicketWorkflowStart, { ticketId: input.ticketId, input: input as unknown as object });
}

/** The pending start of a ticket, if its workflow is not known to be started. */
export async function findTicketStart(executor: Executor, ticketId: string): Promise<CreateTicketInput | null> {
  const row = await managerOf(executor).findOne(TicketWorkflowStart, { where: { ticketId } });
  return row ? (row.input as CreateTicketInput) : null;
}

/**
 * Claims up to `limit` pending starts, oldest first (SKIP LOCKED: several dispatchers
 * never take the same one). A claim older than `reclaimAfterMs` is taken up again: its
 * dispatcher died between claim and start.
 */
export async function claimTicketStarts(
  executor: Executor,
  opts: { limit: number; reclaimAfterMs: number },
): Promise<CreateTicketInput[]> {
  const { rows } = await sql<{ input: CreateTicketInput }>(
    executor,
    `UPDATE ticket_workflow_starts s SET claimed_at = now()
       FROM (SELECT ticket_id FROM ticket_workflow_starts
              WHERE claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::double precision)
              ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED) c
      WHERE s.ticket_id = c.ticket_id
      RETURNING s.input`,
    [opts.limit, opts.reclaimAfterMs / 1000],
  );
  return rows.map((r) => r.input);
}

/** Their workflows are started: the entries are done. */
export async function forgetTicketStarts(executor: Executor, ticketIds: string[]): Promise<void> {
  if (!ticketIds.length) return;
  await sql(executor, `DELETE FROM ticket_workflow_starts WHERE ticket_id = ANY($1::text[])`, [ticketIds]);
}

/** How many tickets wait for their workflow (tests, operators). */
export async function countPendingTicketStarts(executor: Executor): Promise<number> {
  return managerOf(executor).count(TicketWorkflowStart);
}
