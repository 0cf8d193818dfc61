import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { parse } from '../../kit/validation';
import { newId } from '../../../lib/ids';
import { canUseWorkspace, requireScope, requireWorkspace, workspaceIdOf, type Scope } from '../access';
import { looksLikeId } from '../../kit/fields';
import { visibleRow } from '../../kit/visible-row';
import { presentAgent } from './presenters';
import { findAgentById, insertAgent, listAgents } from '../../../db/repositories/agents';
import { AgentIdParams, CreateAgentBody, ListAgentsQuery } from './schema';

/**
 * The scope, plus: SDK keys are client-side keys for player-owned data only (spec,
 * Authentication), and the support staff directory is not player-owned, so they get
 * 403 even when their scopes would match.
 */
function requireStaffScope(ctx: Context, scope: Scope) {
  const a = requireScope(ctx, scope);
  if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot manage agents');
  return a;
}

export function agentsRouter(deps: AppDeps): Router {
  const router = new Router();

  router.post('/agents', async (ctx) => {
    requireStaffScope(ctx, 'tickets:write');
    const body = parse(CreateAgentBody, ctx.request.body);
    const workspaceId = workspaceIdOf(ctx, body.workspaceId);
    await requireWorkspace(ctx, deps, workspaceId);
    const row = await insertAgent(deps.db, {
      id: newId('agt'),
      workspaceId,
      name: body.name,
      email: body.email ?? null,
      avatarUrl: body.avatarUrl ?? null,
    });
    ctx.status = 201;
    ctx.body = presentAgent(row);
  });

  router.get('/agents', async (ctx) => {
    requireStaffScope(ctx, 'tickets:read');
    const query = parse(ListAgentsQuery, ctx.query);
    const workspaceId = workspaceIdOf(ctx, query.workspaceId);
    await requireWorkspace(ctx, deps, workspaceId);
    const { total, rows } = await listAgents(deps.db, workspaceId, query);
    ctx.body = {
      data: rows.map(presentAgent),
      pagination: { total, limit: query.limit, offset: query.offset, hasMore: query.offset + rows.length < total },
    };
  });

  router.get('/agents/:id', async (ctx) => {
    requireStaffScope(ctx, 'tickets:read');
    const { id } = parse(AgentIdParams, ctx.params);
    // 404 rather than 403 for another workspace's agent: ids do not leak existence.
    const row = await visibleRow(
      looksLikeId(id, 'agt') ? findAgentById(deps.db, id) : null,
      (agent) => canUseWorkspace(ctx, deps, agent.workspaceId),
      () => errors.agentNotFound(id),
    );
    ctx.body = presentAgent(row);
  });

  return router;
}
