import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { parse } from '../../kit/validation';
import { findPlayer, listPlayerTickets, lookupPlayer } from '../../../db/repositories/players';
import type { PlayerRow } from '../../../domain/players/types';
import { canUseWorkspace, requireScope, requireWorkspace, workspaceIdOf } from '../access';
import { erasePlayer } from '../../../domain/players/erase-player';
import { looksLikeId } from '../../kit/fields';
import { visibleRow } from '../../kit/visible-row';
import { presentPlayer, presentPlayerTicket } from './presenters';
import { PlayerLookupQuery, PlayerTicketsQuery, UpsertPlayerBody } from './schema';
import { upsertPlayer } from '../../../domain/players/upsert-player';

/**
 * Players under /v1 (mounted behind authentication). Reads need `players:read`,
 * writes `players:write`; the scope is checked before the input, so a key that may
 * not call the endpoint learns nothing about its validation.
 */
export function playersRouter(deps: AppDeps): Router {
  const router = new Router();

  /** A live player the caller may see, by `kpl_` id; 404 for anything else. */
  function visiblePlayer(ctx: Context, id: string): Promise<PlayerRow> {
    return visibleRow(
      looksLikeId(id, 'kpl') ? findPlayer(deps.db, id) : null,
      (row) => canUseWorkspace(ctx, deps, row.workspace_id),
      () => errors.playerNotFound(id),
    );
  }

  router.post('/players', async (ctx) => {
    requireScope(ctx, 'players:write');
    const body = parse(UpsertPlayerBody, ctx.request.body);
    const workspaceId = workspaceIdOf(ctx, body.workspaceId);
    await requireWorkspace(ctx, deps, workspaceId);
    const { row } = await upsertPlayer(deps.db, {
      workspaceId,
      playerId: body.playerId,
      displayName: body.displayName,
      email: body.email,
      metadata: body.metadata,
    });
    // 200 for both create and update (spec): firstSeenAt/lastSeenAt tell them apart.
    ctx.status = 200;
    ctx.body = presentPlayer(row);
  });

  // Before `/players/:id`, or `lookup` would be taken for an id.
  router.get('/players/lookup', async (ctx) => {
    requireScope(ctx, 'players:read');
    const query = parse(PlayerLookupQuery, ctx.query);
    const workspaceId = workspaceIdOf(ctx, query.workspaceId);
    await requireWorkspace(ctx, deps, workspaceId);
    const row = await lookupPlayer(deps.db, workspaceId, query.playerId);
    if (!row) throw errors.playerNotFound(query.playerId);
    ctx.body = presentPlayer(row);
  });

  router.get('/players/:id', async (ctx) => {
    requireScope(ctx, 'players:read');
    ctx.body = presentPlayer(await visiblePlayer(ctx, ctx.params.id));
  });

  router.get('/players/:id/tickets', async (ctx) => {
    requireScope(ctx, 'players:read');
    const query = parse(PlayerTicketsQuery, ctx.query);
    const player = await visiblePlayer(ctx, ctx.params.id);
    const { total, rows } = await listPlayerTickets(deps.db, player.id, query);
    ctx.body = { total, data: rows.map(presentPlayerTicket) };
  });

  router.delete('/players/:id', async (ctx) => {
    requireScope(ctx, 'players:write');
    const player = await visiblePlayer(ctx, ctx.params.id);
    // player_not_found when a concurrent erasure got there first
    await erasePlayer(deps.db, player.id);
    ctx.status = 204;
  });

  return router;
}
