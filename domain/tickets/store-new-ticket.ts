import type { Executor } from '../../db/db';
import { recordEvent } from '../../db/repositories/events';
import { organizationPlan } from '../../db/repositories/organizations';
import { countTicketWithinQuota } from '../../db/repositories/ticket-usage';
import { touchPlayerForTicket } from '../../db/repositories/players';
import { findTicket, insertTicketRow } from '../../db/repositories/tickets';
import { MONTHLY_TICKET_QUOTA, usageMonth } from './quota.rules';
import type { WorkspaceSettings } from '../workspaces/types';
import { ticketPlayerNotFound, ticketQuotaExceeded } from './errors';
import { ticketEventData } from './events';
import { PRIORITY_RANK } from './rules';
import type { CreateTicketInput } from './types';
import { loadWorkspaceSettings } from '../workspaces/load-settings';

/**
 * Stores a new ticket with its `ticket.created` event, the player's lastSeenAt and the
 * organization's monthly usage, inside the caller's transaction. Idempotent by ticket id:
 * a retry after a lost reply returns without writing again. Used by the workflow's
 * insertTicket (tickets created before the create outbox) and the API's create (api/ticketing/tickets/
 * create.ts, which adds the outbox entry to the same transaction). Refuses with
 * workspace_not_found, player_not_found (an unknown or erased player) or
 * ticket_quota_exceeded (details: the plan's monthly `limit`).
 */
export async function storeNewTicket(executor: Executor, input: CreateTicketInput): Promise<{ version: number; settings: WorkspaceSettings }> {
  const settings = await loadWorkspaceSettings(executor, input.workspaceId);
  const existing = await findTicket(executor, input.ticketId);
  if (existing) return { version: 1, settings }; // a retry after a lost reply

  // One row lock on the player, taken once: it moves lastSeenAt, refuses an erased
  // player, and holds off an erasure until this ticket is stored (and anonymised with
  // the rest). Two creates for the same player queue here instead of deadlocking.
  if (!(await touchPlayerForTicket(executor, input.playerRef, input.createdAt))) {
    throw ticketPlayerNotFound(input.playerRef);
  }
  await insertTicketRow(executor, {
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
  const ticket = (await findTicket(executor, input.ticketId))!;
  await recordEvent(executor, {
    workspaceId: input.workspaceId,
    type: 'ticket.created',
    subjectId: input.ticketId,
    data: ticketEventData(ticket),
    at: input.createdAt,
    dedupeKey: `ticket.created:${input.ticketId}`,
  });
  // last, so the organization's one usage row is locked only until the commit; over
  // the plan's quota nothing of this ticket commits
  const plan = await organizationPlan(executor, input.organizationId);
  const limit = plan ? MONTHLY_TICKET_QUOTA[plan] : Infinity;
  if (!(await countTicketWithinQuota(executor, input.organizationId, usageMonth(input.createdAt), Number.isFinite(limit) ? limit : null))) {
    throw ticketQuotaExceeded(limit);
  }
  // small: the result goes into the workflow history (the API reads the row)
  return { version: 1, settings };
}
