import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { findPlatformReply, findPlatformTicket, isPlatformOrganizationUser, listPlatformTickets, type PlatformTicketFilter } from '../../../db/repositories/platform-tickets';
import { findPlatformChannel } from '../../../db/repositories/platform-workspaces';
import { hasRole } from '../../../domain/platform/access.rules';
import { checkTicketReferences } from '../../../domain/platform/create-ticket';
import { platformForbidden, platformInvalidField, platformNotFound } from '../../../domain/platform/errors';
import { dropPlatformReply, draftPlatformReply } from '../../../domain/platform/reply-draft';
import { checkPlatformTicketChange } from '../../../domain/platform/ticket.rules';
import type { PlatformTicketRecord } from '../../../domain/platform/types';
import { newId } from '../../../lib/ids';
import { deleteTicketUpdate, patchTicketUpdate, replyTicketUpdate, restoreTicketUpdate } from '../../../workflows/platform-ticket/contract';
import { nowOf, type AppDeps } from '../../deps';
import { looksLikeId } from '../../kit/fields';
import type { IdempotencyState } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { visibleRow } from '../../kit/visible-row';
import { principalOf, type PlatformPrincipal } from '../auth/middleware';
import { offsetAndLimit, platformList } from '../paging';
import { changeTicket, createTicket, standingOf } from './gateway';
import { presentReply, presentTicket } from './presenters';
import { CreateTicketRequest, ListTicketsQuery, PatchTicketRequest, ReplyRequest } from './schema';

const unique = (tags: string[]) => [...new Set(tags)];

/**
 * Tickets (docs/platform.md, "Tickets"): create, list, read, change, reply, soft delete and
 * restore, each in the token's workspace and environment only: any other ticket is a 404.
 */
export function platformTicketsRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();

  /** The row if it is in the caller's workspace and environment (soft-deleted ones only when `deleted` says so), else 404. */
  const ticketOf = (caller: PlatformPrincipal, id: string, opts: { deleted?: boolean } = {}): Promise<PlatformTicketRecord> =>
    visibleRow(
      looksLikeId(id, 'tkt') ? findPlatformTicket(deps.db, id) : null,
      (t) => t.workspaceId === caller.workspaceId && t.organizationId === caller.organizationId && t.environment === caller.environment && (opts.deleted || t.deletedAt === null),
      () => platformNotFound('ticket', id),
    );
  /** The row after a change (the workflow's reply carries only its step). */
  const stored = async (id: string) => {
    const t = await findPlatformTicket(deps.db, id);
    if (!t) throw platformNotFound('ticket', id);
    return t;
  };
  const managerOnly = (caller: PlatformPrincipal, what: string) => {
    if (!hasRole(caller, 'manager')) throw platformForbidden(`Only a manager or an admin may ${what} tickets`);
  };

  router.post('/tickets', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(CreateTicketRequest, ctx.request.body);
    const idem = ctx.state.idempotency as IdempotencyState | undefined;
    if (idem?.resourceId) {
      // an earlier attempt under this key created the ticket and died before answering
      ctx.status = 201;
      ctx.body = presentTicket(await stored(idem.resourceId));
      return;
    }
    const ticket = await createTicket(
      deps,
      caller,
      {
        ticketId: newId('tkt'),
        environment: caller.environment,
        channelId: body.channel_id,
        subject: body.subject,
        body: body.body ?? '',
        contactEmail: body.contact_email,
        priority: body.priority,
        assigneeId: body.assignee_id ?? null,
        tags: unique(body.tags),
        now: nowOf(deps),
      },
      idem,
    );
    ctx.status = 201;
    ctx.body = presentTicket(ticket);
  });

  router.get('/tickets', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(ListTicketsQuery, ctx.query);
    const filter = await filterOf(deps, caller, q);
    const { offset, limit } = offsetAndLimit(q);
    const { rows, total } = await listPlatformTickets(deps.db, filter, offset, limit);
    ctx.body = platformList(ctx, rows.map(presentTicket), total, q);
  });

  router.get('/tickets/:id', auth, async (ctx) => {
    ctx.body = presentTicket(await ticketOf(principalOf(ctx), ctx.params.id));
  });

  router.patch('/tickets/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(PatchTicketRequest, ctx.request.body);
    const t = await ticketOf(caller, ctx.params.id);
    await checkTicketReferences(deps.db, t.workspaceId, { assigneeId: body.assignee_id });
    const change = { status: body.status, priority: body.priority, assigneeId: body.assignee_id, tags: body.tags && unique(body.tags) };
    await changeTicket(deps, t.id, 'patch', patchTicketUpdate, [change], body.status);
    ctx.body = presentTicket(await stored(t.id));
  });

  router.put('/tickets/:id/reply', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(ReplyRequest, ctx.request.body);
    const t = await ticketOf(caller, ctx.params.id);
    // a closed ticket is refused before a draft is written (the workflow refuses it too)
    const refusal = checkPlatformTicketChange(t.id, standingOf(t), 'reply', nowOf(deps).getTime());
    if (refusal) throw refusal;
    const replyId = await draftPlatformReply(deps.db, t.id, caller.userId, body.body);
    try {
      await changeTicket(deps, t.id, 'reply', replyTicketUpdate, [{ replyId }]);
    } catch (err) {
      await dropPlatformReply(deps.db, replyId).catch(() => undefined); // hidden either way
      throw err;
    }
    const reply = await findPlatformReply(deps.db, replyId);
    if (!reply) throw platformNotFound('ticket', t.id); // purged right after
    ctx.status = 201;
    ctx.body = presentReply(reply);
  });

  router.delete('/tickets/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const t = await ticketOf(caller, ctx.params.id);
    managerOnly(caller, 'delete');
    await changeTicket(deps, t.id, 'delete', deleteTicketUpdate, []);
    ctx.status = 204;
  });

  router.post('/tickets/:id/restore', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const t = await ticketOf(caller, ctx.params.id, { deleted: true });
    managerOnly(caller, 'restore');
    // the window on the request path's clock, to the millisecond (the workflow's validator
    // applies the same rule at its own time, and its timer purges the row at purge_at)
    const refusal = checkPlatformTicketChange(t.id, standingOf(t), 'restore', nowOf(deps).getTime());
    if (refusal) throw refusal;
    await changeTicket(deps, t.id, 'restore', restoreTicketUpdate, []);
    ctx.body = presentTicket(await stored(t.id));
  });

  return router;
}

/** The list's filter: the caller's workspace and environment; a channel or assignee of another workspace is a 400. */
async function filterOf(deps: AppDeps, caller: PlatformPrincipal, q: ListTicketsQuery): Promise<PlatformTicketFilter> {
  const f: PlatformTicketFilter = { workspaceId: caller.workspaceId, environment: caller.environment, status: q.status, priority: q.priority, tag: q.tag };
  if (q.channel !== undefined) {
    const channel = await findPlatformChannel(deps.db, q.channel);
    if (!channel || channel.workspaceId !== caller.workspaceId) throw platformInvalidField('channel', `No channel '${q.channel}' in this workspace`);
    f.channelId = channel.id;
  }
  if (q.assignee === 'none') f.assigneeId = null;
  else if (q.assignee !== undefined) {
    if (!(await isPlatformOrganizationUser(deps.db, caller.organizationId, q.assignee))) throw platformInvalidField('assignee', `No user '${q.assignee}'`);
    f.assigneeId = q.assignee;
  }
  if (q.created_after) f.createdAfter = new Date(q.created_after);
  if (q.created_before) f.createdBefore = new Date(q.created_before);
  return f;
}
