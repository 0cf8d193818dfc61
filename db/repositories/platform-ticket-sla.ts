// platform_tickets' SLA facts (docs/platform.md, "SLA breaches"): when a ticket was first
// answered and when each of its two policies was breached, each set once (only while
// null). Written by the ticket workflow's activities only (the workflow is the ticket's
// one writer); read by them and by the analytics summary.
import type { PlatformSlaPolicyName } from '../../domain/platform/sla.rules';
import type { PlatformSlaPolicy, PlatformTicketRecord } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';
import { PLATFORM_TICKET_COLUMNS } from './platform-tickets';

/** A ticket with its SLA facts and its workspace's stored policies (null: the defaults). */
export interface PlatformTicketSlaRow extends PlatformTicketRecord {
  firstResponseAt: Date | null;
  firstResponseBreachedAt: Date | null;
  resolutionBreachedAt: Date | null;
  slaPolicies: PlatformSlaPolicy[] | null;
}

// first_response_at, or the first published reply's time for a reply a worker of the code
// before the column published (migration PlatformFirstResponseBackfill covers the rest)
const SLA_COLUMNS = `${PLATFORM_TICKET_COLUMNS},
  COALESCE(t.first_response_at, (SELECT min(r.created_at) FROM platform_ticket_replies r WHERE r.ticket_id = t.id AND r.version IS NOT NULL)) AS "firstResponseAt",
  t.first_response_breached_at AS "firstResponseBreachedAt", t.resolution_breached_at AS "resolutionBreachedAt",
  w.sla_policies AS "slaPolicies"`;

/** The ticket's SLA row; `lock` takes the ticket's row lock for the caller's transaction. Null when it is gone. */
export async function findPlatformTicketSla(executor: SqlExecutor, id: string, lock = false): Promise<PlatformTicketSlaRow | null> {
  const { rows } = await sql<PlatformTicketSlaRow>(
    executor,
    `SELECT ${SLA_COLUMNS} FROM platform_tickets t JOIN platform_workspaces w ON w.id = t.workspace_id
      WHERE t.id = $1 ${lock ? 'FOR UPDATE OF t' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** The first published reply's time, kept when one is stored already. */
export async function markPlatformFirstResponse(executor: Executor, id: string, at: string): Promise<void> {
  await sql(executor, `UPDATE platform_tickets SET first_response_at = $2 WHERE id = $1 AND first_response_at IS NULL`, [id, at]);
}

const BREACH_COLUMN: Record<PlatformSlaPolicyName, string> = {
  first_response: 'first_response_breached_at',
  resolution: 'resolution_breached_at',
};

/** Sets the policy's breach time; false when it was set already (at most one breach per policy). */
export async function markPlatformSlaBreach(executor: Executor, id: string, policy: PlatformSlaPolicyName, at: string): Promise<boolean> {
  const column = BREACH_COLUMN[policy];
  const { rowCount } = await sql(executor, `UPDATE platform_tickets SET ${column} = $2 WHERE id = $1 AND ${column} IS NULL`, [id, at]);
  return (rowCount ?? 0) > 0;
}
