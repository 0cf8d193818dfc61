// POST /tickets: a new ticket in the caller's workspace and environment, inside the
// caller's transaction (the gateway adds the workflow's outbox entry and the
// Idempotency-Key binding to it). The channel must be one of the workspace's and the
// assignee an active user who works in it: anything else is the field's 400 (the same
// answer for an unknown id and another organisation's, so nothing leaks).
import type { Executor } from '../../db/db';
import { recordEvent } from '../../db/repositories/events';
import { findPlatformChannel } from '../../db/repositories/platform-workspaces';
import { insertPlatformTicket, isActivePlatformWorker } from '../../db/repositories/platform-tickets';
import type { PlatformCaller } from './access.rules';
import { platformConflict, platformInvalidField } from './errors';
import { platformTicketData } from './ticket-events';
import type { PlatformTicketRecord } from './types';

/** What POST /tickets asks for, in the caller's workspace and environment. */
export type NewTicketInput = Pick<
  PlatformTicketRecord,
  'environment' | 'channelId' | 'subject' | 'body' | 'contactEmail' | 'priority' | 'assigneeId' | 'tags'
> & { ticketId: string; now: Date };

/** Refuses a channel or an assignee the workspace does not have (400 on that field). */
export async function checkTicketReferences(executor: Executor, workspaceId: string, refs: { channelId?: string; assigneeId?: string | null }): Promise<void> {
  if (refs.channelId !== undefined) {
    const channel = await findPlatformChannel(executor, refs.channelId);
    if (!channel || channel.workspaceId !== workspaceId) throw platformInvalidField('channel_id', `No channel '${refs.channelId}' in this workspace`);
  }
  if (refs.assigneeId && !(await isActivePlatformWorker(executor, workspaceId, refs.assigneeId))) {
    throw platformInvalidField('assignee_id', `No active user '${refs.assigneeId}' works in this workspace`);
  }
}

export async function createPlatformTicket(executor: Executor, caller: PlatformCaller, input: NewTicketInput): Promise<PlatformTicketRecord> {
  await checkTicketReferences(executor, caller.workspaceId, { channelId: input.channelId, assigneeId: input.assigneeId });
  const ticket = await insertPlatformTicket(executor, {
    id: input.ticketId,
    organizationId: caller.organizationId,
    workspaceId: caller.workspaceId,
    environment: input.environment,
    channelId: input.channelId,
    subject: input.subject,
    body: input.body,
    contactEmail: input.contactEmail,
    priority: input.priority,
    assigneeId: input.assigneeId,
    tags: input.tags,
    createdBy: caller.userId,
    createdAt: input.now,
  });
  if (!ticket) throw platformConflict(`Ticket '${input.ticketId}' exists already`);
  await recordEvent(executor, {
    workspaceId: ticket.workspaceId,
    type: 'ticket.created',
    subjectId: ticket.id,
    data: platformTicketData(ticket),
    at: input.now,
    dedupeKey: `platform-ticket:${ticket.id}:1`,
    api: 'platform',
    environment: ticket.environment,
  });
  return ticket;
}
