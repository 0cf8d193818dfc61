import Router from '@koa/router';
import type { Context } from 'koa';
import { findMessage, findTicket, listMessages, toTicketRecord } from '../../../db/repositories/tickets';
import { newId } from '../../../lib/ids';
import { assignUpdate, deleteUpdate, messageUpdate, patchUpdate, resolveUpdate } from '../../../workflows/ticket/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { parse } from '../../kit/validation';
import { auth, canUseWorkspace, requireScope, requireWorkspace } from '../access';
import { visibleRow } from '../../kit/visible-row';
import { changeTicket } from './gateway';
import { createTicket } from './gateway';
import type { IdempotencyState } from '../../kit/idempotency';
import { cursorPage } from '../../kit/pagination';
import { countMatches, pageOfTickets } from '../../../db/repositories/ticket-list';
import { buildListQuery } from './list-query';
import { findPlayer, findPlayerByRef } from '../../../db/repositories/players';
import { findAgent } from '../../../db/repositories/agents';
import { presentAssignee } from '../agents/presenters';
import { presentPlayerExpansion } from '../players/presenters';
import { checkTicketQuota } from './quota';
import * as present from './presenters';
import {
  AssignTicketBody,
  CreateMessageBody,
  CreateTicketBody,
  ListTicketsQuery,
  PatchTicketBody,
  ResolveTicketBody,
  type TicketPage,
} from './schema';

export function ticketsRouter(deps: AppDeps): Router {
  const router = new Router();
  const actorOf = (ctx: Context) => ({ keyId: auth(ctx).keyId });

  /**
   * The row as the workflow's step left it (or newer), read once the update has returned:
   * workflow replies carry ids and step numbers, never records (docs/tickets.md).
   */
  async function storedTicket(id: string) {
    const t = await findTicket(deps.db, id);
    if (!t) throw errors.ticketNotFound(id); // deleted right after the change
    return t;
  }

  /**
   * The ticket if the caller may see it (its workspace, and for an SDK key its player);
   * another's ticket is indistinguishable from an absent one. A failing dependency is not
   * "absent": it is thrown on and answered 503.
   */
  function visibleTicket(ctx: Context, id: string) {
    const a = auth(ctx);
    return visibleRow(
      findTicket(deps.db, id),
      async (t) => (await canUseWorkspace(ctx, deps, t.workspaceId)) && (!a.playerId || t.playerId === a.playerId),
      () => errors.ticketNotFound(id),
    );
  }

  router.post('/tickets', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    const body = parse(CreateTicketBody, ctx.request.body);
    const idem = ctx.state.idempotency as IdempotencyState | undefined;
    if (idem?.resourceId) {
      // an earlier attempt under this key created the ticket and died before answering
      ctx.status = 201;
      ctx.body = present.presentTicket(await storedTicket(idem.resourceId));
      return;
    }
    const ws = await requireWorkspace(ctx, deps, body.workspaceId);
    if (a.playerId && body.playerId !== a.playerId) throw errors.forbidden('An SDK key may only create tickets for its own player');
    const player = await findPlayerByRef(deps.db, ws.id, body.playerId);
    if (!player) throw errors.playerNotFound(body.playerId);
    await checkTicketQuota(deps.db, a.organizationId, a.plan);
    const ticketId = newId('tkt');
    await createTicket(deps, {
      ticketId,
      workspaceId: ws.id,
      organizationId: a.organizationId,
      playerRef: player.id,
      playerId: player.player_id,
      title: body.title,
      body: body.body,
      category: body.category ?? null,
      priority: body.priority,
      source: a.type === 'sdk' && body.source === 'api' ? 'sdk' : body.source,
      tags: body.tags,
      metadata: body.metadata,
      createdAt: new Date().toISOString(),
      searchAttributes: deps.config.temporalSearchAttributes,
    }, idem);
    ctx.status = 201;
    ctx.body = present.presentTicket(await storedTicket(ticketId));
  });

  router.get('/tickets', async (ctx) => {
    const a = requireScope(ctx, 'tickets:read');
    const q = parse(ListTicketsQuery, ctx.query);
    await requireWorkspace(ctx, deps, q.workspaceId);
    const { page, count, cursorFor } = buildListQuery(q, a.playerId);
    const [rows, { total, totalExact }] = await Promise.all([pageOfTickets(deps.db, page), countMatches(deps.db, count)]);
    const { rows: shown, hasMore, nextCursor } = cursorPage(rows, q.limit, cursorFor);
    ctx.body = {
      data: shown.map((r) => present.presentListItem(toTicketRecord(r))),
      pagination: { total, totalExact, limit: q.limit, offset: q.cursor ? 0 : q.offset, hasMore, nextCursor },
    } satisfies TicketPage;
  });

  router.get('/tickets/:id', async (ctx) => {
    const a = requireScope(ctx, 'tickets:read');
    const t = await visibleTicket(ctx, ctx.params.id);
    const [messages, assignee, player] = await Promise.all([
      listMessages(deps.db, t.id),
      t.assigneeId ? findAgent(deps.db, t.workspaceId, t.assigneeId) : null,
      t.playerRef ? findPlayer(deps.db, t.playerRef) : null,
    ]);
    ctx.body = present.presentTicketDetail(t, {
      assignee: presentAssignee(assignee),
      messages,
      player: presentPlayerExpansion(player),
      forPlayer: a.playerId !== null,
    });
  });

  router.patch('/tickets/:id', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    const body = parse(PatchTicketBody, ctx.request.body);
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot update tickets; players reply with messages');
    const t = await visibleTicket(ctx, ctx.params.id);
    if (body.assigneeId && !(await findAgent(deps.db, t.workspaceId, body.assigneeId))) throw errors.agentNotFound(body.assigneeId);
    await changeTicket(deps, t.id, 'patch', patchUpdate, [body, actorOf(ctx)], body.status);
    ctx.body = present.presentPatch(await storedTicket(t.id));
  });

  router.post('/tickets/:id/assign', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    const body = parse(AssignTicketBody, ctx.request.body);
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot assign tickets');
    const t = await visibleTicket(ctx, ctx.params.id);
    const agent = presentAssignee(await findAgent(deps.db, t.workspaceId, body.agentId));
    if (!agent) throw errors.agentNotFound(body.agentId);
    await changeTicket(deps, t.id, 'assign', assignUpdate, [body, actorOf(ctx)]);
    ctx.body = present.presentAssign(await storedTicket(t.id), agent);
  });

  router.post('/tickets/:id/resolve', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    const body = parse(ResolveTicketBody, ctx.request.body);
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot resolve tickets');
    const t = await visibleTicket(ctx, ctx.params.id);
    const result = await changeTicket(deps, t.id, 'resolve', resolveUpdate, [body, actorOf(ctx)]);
    ctx.body = present.presentResolve(await storedTicket(t.id), result.notificationSent ?? false);
  });

  router.post('/tickets/:id/messages', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    const body = parse(CreateMessageBody, ctx.request.body);
    const t = await visibleTicket(ctx, ctx.params.id);
    if (a.playerId && body.authorType !== 'player') throw errors.forbidden('An SDK key writes as its player only');
    const authorId = body.authorId ?? t.playerId;
    if (body.authorType === 'agent') {
      if (!body.authorId) throw errors.validation('authorId: Required for agent messages');
      if (!(await findAgent(deps.db, t.workspaceId, body.authorId))) throw errors.agentNotFound(body.authorId);
    } else if (authorId !== t.playerId) {
      throw errors.validation("authorId: a player message must come from the ticket's player");
    }
    const change = { messageId: newId('msg'), authorType: body.authorType, authorId, body: body.body };
    await changeTicket(deps, t.id, 'message', messageUpdate, [change, actorOf(ctx)]);
    const message = await findMessage(deps.db, change.messageId);
    if (!message) throw errors.ticketNotFound(t.id); // the ticket was deleted right after
    ctx.status = 201;
    ctx.body = present.presentMessage(message);
  });

  router.delete('/tickets/:id', async (ctx) => {
    const a = requireScope(ctx, 'tickets:write');
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot delete tickets');
    const t = await visibleTicket(ctx, ctx.params.id);
    await changeTicket(deps, t.id, 'delete', deleteUpdate, [actorOf(ctx)]);
    ctx.status = 204;
  });

  return router;
}
