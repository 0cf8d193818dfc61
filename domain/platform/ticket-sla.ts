// A platform ticket's SLA as its workflow's activities read and record it (docs/platform.md,
// "SLA breaches"): the deadlines (ids in, ISO times out) and a breach, applied once per
// policy under the ticket's row lock and announced as `ticket.sla_breached` (api
// 'platform', deduplicated per ticket and policy, so a retried activity records one event).
import type { Db, SqlExecutor } from '../../db/db';
import { recordEvent } from '../../db/repositories/events';
import { findPlatformTicketSla, markPlatformSlaBreach, type PlatformTicketSlaRow } from '../../db/repositories/platform-ticket-sla';
import { slaDueTimes, slaPolicyOpen, type PlatformSlaBreachRequest, type PlatformTicketSla, type SlaTicketFacts } from './sla.rules';
import { platformTicketData } from './ticket-events';

const iso = (ms: number) => new Date(ms).toISOString();

function slaFactsOf(row: PlatformTicketSlaRow): SlaTicketFacts {
  return {
    status: row.status,
    deleted: row.deletedAt !== null,
    firstResponded: row.firstResponseAt !== null,
    breached: { first_response: row.firstResponseBreachedAt !== null, resolution: row.resolutionBreachedAt !== null },
  };
}

/** The ticket's deadlines under its workspace's active policies now, with what is met or breached; `gone` when the row has vanished. */
export async function readPlatformTicketSla(db: Db | SqlExecutor, ticketId: string): Promise<PlatformTicketSla | { gone: true }> {
  const row = await findPlatformTicketSla(db, ticketId);
  if (!row) return { gone: true };
  const due = slaDueTimes(new Date(row.createdAt).getTime(), row.priority, row.slaPolicies);
  const facts = slaFactsOf(row);
  return {
    priority: row.priority,
    dueAt: { first_response: iso(due.first_response), resolution: iso(due.resolution) },
    firstResponded: facts.firstResponded,
    breached: facts.breached,
  };
}

/**
 * Records the breach of `policy` when, under the row lock, it is still open (unmet, not
 * breached, the ticket neither resolved, closed nor soft-deleted): the breach column set
 * to the deadline and the event. `breached: false` when it is not (a retry, or a change the
 * workflow had not seen); `gone` when the row has vanished.
 */
export async function breachPlatformTicketSla(db: Db, req: PlatformSlaBreachRequest): Promise<{ breached: boolean } | { gone: true }> {
  return db.transaction(async (m) => {
    const row = await findPlatformTicketSla(m, req.ticketId, true);
    if (!row) return { gone: true as const };
    if (!slaPolicyOpen(slaFactsOf(row), req.policy)) return { breached: false };
    if (!(await markPlatformSlaBreach(m, row.id, req.policy, req.dueAt))) return { breached: false };
    await recordEvent(m, {
      workspaceId: row.workspaceId,
      type: 'ticket.sla_breached',
      subjectId: row.id,
      data: { ticket_id: row.id, policy: req.policy, priority: row.priority, due_at: req.dueAt, breached_at: req.dueAt, ticket: platformTicketData(row) },
      at: req.dueAt,
      dedupeKey: `platform-ticket:${row.id}:sla:${req.policy}`,
      api: 'platform',
      environment: row.environment,
    });
    return { breached: true };
  });
}
