import type { Db, Tx } from '../../db/db';
import { organizationPlan } from '../../db/repositories/organizations';
import { countTicketWithinQuota } from '../../db/repositories/ticket-usage';
import { touchPlayerForTicket } from '../../db/repositories/players';
import { findTicket, insertTicketRow } from '../../db/repositories/tickets';
import { findWorkspaceSettings } from '../../db/repositories/workspaces';
import { MONTHLY_TICKET_QUOTA, usageMonth } from '../../lib/ticket-quota';
import { resolveSettings, type WorkspaceSettings } from '../../lib/workspace-settings';
import { PRIORITY_RANK } from '../../domain/tickets/rules';
import type { CreateTicketInput } from '../../domain/tickets/types';
import { Failures } from '../failures';
import { recordEvent, ticketEventData } from './events';

/**
 * Stores a new ticket with its `ticket.created` event, the player's lastSeenAt and the
 * organization's monthly usage, in one transaction. Idempotent by ticket id: a retry
 * after a lost reply returns the row that the first attempt wrote.
 */
export async function insertTicket(db: Db, input: CreateTicketInput): Promise<{ version: number; settings: WorkspaceSettings }> {
  return db.tx((c) => storeNewTicket(c, input));
}

/**
 * The body of a create inside the caller's transaction: the workflow's insertTicket
 * (tickets created before the create outbox) and the API's create (api/ticketing/tickets/
 * create.ts, which adds the outbox entry to the same transaction).
 */
export async function storeNewTicket(c: Tx, input: CreateTicketInput): Promise<{ version: number; settings: WorkspaceSettings }> {
  const stored = await findWorkspaceSettings(c, input.workspaceId);
  if (!stored) throw Failures.workspaceNotFound(input.workspaceId);
  const settings = resolveSettings(stored);
  const existing = await findTicket(c, input.ticketId);
  if (existing) return { version: 1, settings }; // a retry after a lost reply

  // One row lock on the player, taken once: it moves lastSeenAt, refuses an erased
  // player, and holds off an erasure until this ticket is stored (and anonymised with
  // the rest). Two creates for the same player queue here instead of deadlocking.
  if (!(await touchPlayerForTicket(c, input.playerRef, input.createdAt))) throw Failures.playerNotFound(input.playerRef);
  await insertTicketRow(c, {
    id: input.ticketId,
    workspaceId: input.workspaceId,
    playerRef: input.playerRef,
    playerId: input.playerId,
    title: input.title,
    body: input.body,
    priority: input.priority,
    priorityRank: PRIORITY_RANK[input.priority],
    category: input.category,
    source: input.source,
    tags: input.tags,
    metadata: input.metadata,
    createdAt: input.createdAt,
  });
  const ticket = (await findTicket(c, input.ticketId))!;
  await recordEvent(c, {
    workspaceId: input.workspaceId,
    type: 'ticket.created',
    subjectId: input.ticketId,
    data: ticketEventData(ticket),
    at: input.createdAt,
    dedupeKey: `ticket.created:${input.ticketId}`,
  });
  // last, so the organization's one usage row is locked only until the commit; over
  // the plan's quota nothing of this ticket commits
  const plan = await organizationPlan(c, input.organizationId);
  const limit = plan ? MONTHLY_TICKET_QUOTA[plan] : Infinity;
  if (!(await countTicketWithinQuota(c, input.organizationId, usageMonth(input.createdAt), Number.isFinite(limit) ? limit : null))) {
    throw Failures.ticketQuotaExceeded(limit);
  }
  // small: the result goes into the workflow history (the API reads the row)
  return { version: 1, settings };
}
