import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Executor } from '../../../db/db';
import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { findPlatformAutomation, listPlatformAutomations } from '../../../db/repositories/platform-automations';
import { reachesAutomation, type AutomationAction, type AutomationCondition } from '../../../domain/platform/automation.rules';
import { changePlatformAutomation } from '../../../domain/platform/change-automation';
import { createPlatformAutomation } from '../../../domain/platform/create-automation';
import { deletePlatformAutomationOf } from '../../../domain/platform/delete-automation';
import { platformIdempotencyInProgress, platformNotFound } from '../../../domain/platform/errors';
import { newId } from '../../../lib/ids';
import { nowOf, type AppDeps } from '../../deps';
import { looksLikeId } from '../../kit/fields';
import type { IdempotencyState } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { visibleRow } from '../../kit/visible-row';
import { principalOf } from '../auth/middleware';
import { offsetAndLimit, platformList } from '../paging';
import { presentAutomation } from './presenters';
import { CreateAutomationRequest, ListAutomationsQuery, PatchAutomationRequest } from './schema';

// the schema checked the JSON shapes; the field/operator matrix is the domain's rule
const conditionsOf = (c: unknown) => c as AutomationCondition[];
const actionsOf = (a: unknown) => a as AutomationAction[];

/**
 * Automations (docs/platform.md, "Automations"): rules of the workspaces the token reaches,
 * in its environment. Anyone reads them; managers and admins create, change and remove them.
 * No request waits on a workflow (the ticket workflows read the rules when they run), so
 * there is no gateway: the routes call the domain commands.
 */
export function platformAutomationsRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();

  router.post('/automations', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(CreateAutomationRequest, ctx.request.body);
    const idem = ctx.state.idempotency as IdempotencyState | undefined;
    if (idem?.resourceId) {
      // an earlier attempt under this key created the rule and died before answering
      const made = await findPlatformAutomation(deps.db, idem.resourceId);
      if (!made) throw platformNotFound('automation', idem.resourceId); // removed since
      ctx.status = 201;
      ctx.body = presentAutomation(made);
      return;
    }
    const automationId = newId('aut');
    const bindKey = async (m: Executor) => {
      if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, automationId))) throw platformIdempotencyInProgress();
    };
    const input = {
      automationId,
      workspaceId: body.workspace_id ?? caller.workspaceId,
      environment: caller.environment,
      name: body.name.trim(),
      trigger: body.trigger,
      conditions: conditionsOf(body.conditions),
      actions: actionsOf(body.actions),
      active: body.active,
      now: nowOf(deps),
    };
    const rule = await createPlatformAutomation(deps.db, caller, input, bindKey);
    ctx.status = 201;
    ctx.body = presentAutomation(rule);
  });

  router.get('/automations', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(ListAutomationsQuery, ctx.query);
    const { offset, limit } = offsetAndLimit(q);
    const { rows, total } = await listPlatformAutomations(
      deps.db,
      {
        organizationId: caller.organizationId,
        environment: caller.environment,
        workspaceIds: caller.isOrgAdmin ? null : [caller.workspaceId],
        workspaceId: q.workspace_id,
        trigger: q.trigger,
        active: q.active === undefined ? undefined : q.active === 'true',
      },
      offset,
      limit,
    );
    ctx.body = platformList(ctx, rows.map(presentAutomation), total, q);
  });

  router.get('/automations/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const id = ctx.params.id;
    const rule = await visibleRow(looksLikeId(id, 'aut') ? findPlatformAutomation(deps.db, id) : null, (a) => reachesAutomation(caller, a), () => platformNotFound('automation', id));
    ctx.body = presentAutomation(rule);
  });

  router.patch('/automations/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(PatchAutomationRequest, ctx.request.body);
    const id = ctx.params.id;
    if (!looksLikeId(id, 'aut')) throw platformNotFound('automation', id);
    const rule = await changePlatformAutomation(
      deps.db,
      caller,
      id,
      {
        name: body.name?.trim(),
        trigger: body.trigger,
        conditions: body.conditions === undefined ? undefined : conditionsOf(body.conditions),
        actions: body.actions === undefined ? undefined : actionsOf(body.actions),
        active: body.active,
      },
      nowOf(deps),
    );
    ctx.body = presentAutomation(rule);
  });

  router.delete('/automations/:id', auth, async (ctx) => {
    const id = ctx.params.id;
    if (!looksLikeId(id, 'aut')) throw platformNotFound('automation', id);
    await deletePlatformAutomationOf(deps.db, principalOf(ctx), id);
    ctx.status = 204;
  });

  return router;
}
