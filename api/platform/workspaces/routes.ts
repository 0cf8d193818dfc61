import Router from '@koa/router';
import type { Middleware } from 'koa';
import { nowOf, type AppDeps } from '../../deps';
import { parse } from '../../kit/validation';
import { visibleRow } from '../../kit/visible-row';
import type { Db } from '../../../db/db';
import { countPlatformWorkspaceAgents, findPlatformWorkspace, listPlatformChannels, listPlatformWorkspaces } from '../../../db/repositories/platform-workspaces';
import { reachesWorkspace } from '../../../domain/platform/access.rules';
import { createWorkspaceAsAdmin } from '../../../domain/platform/create-workspace-as-admin';
import { platformInvalidField, platformNotFound } from '../../../domain/platform/errors';
import { setPlatformSlaPolicies } from '../../../domain/platform/set-sla-policies';
import type { PlatformTicketPriority, PlatformWorkspaceRecord } from '../../../domain/platform/types';
import { updatePlatformWorkspace } from '../../../domain/platform/update-workspace';
import { canonicalLanguageTag, canonicalTimeZone } from '../../../domain/platform/workspace-settings.rules';
import { principalOf } from '../auth/middleware';
import { offsetAndLimit, platformList } from '../paging';
import { deleteWorkspace, restoreWorkspace } from './gateway';
import { presentWorkspace, presentWorkspaceDetail } from './presenters';
import { CreateWorkspaceRequest, DeleteWorkspaceBody, DeleteWorkspaceQuery, ListWorkspacesQuery, SetSlaPoliciesRequest, UpdateWorkspaceRequest } from './schema';

async function detail(db: Db, w: PlatformWorkspaceRecord) {
  const [channels, agents] = await Promise.all([listPlatformChannels(db, w.id), countPlatformWorkspaceAgents(db, w.id)]);
  return presentWorkspaceDetail(w, channels, agents);
}

/** Whether the request confirms the deletion: `{"confirm": true}` as the body, or `?confirm=true`. */
function confirmed(body: unknown, query: unknown): boolean {
  const b = parse(DeleteWorkspaceBody, body ?? {});
  const q = parse(DeleteWorkspaceQuery, query);
  return b.confirm === true || q.confirm === 'true';
}

/** Workspaces: list, detail, create, change, delete after a grace, restore (docs/platform.md, "Workspaces"). */
export function platformWorkspacesRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();
  const visible = (ctx: { params: Record<string, string> }, caller: ReturnType<typeof principalOf>) =>
    visibleRow(findPlatformWorkspace(deps.db, ctx.params.id), (w) => reachesWorkspace(caller, w), () => platformNotFound('workspace', ctx.params.id));

  router.get('/workspaces', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(ListWorkspacesQuery, ctx.query);
    const { offset, limit } = offsetAndLimit(q);
    const { rows, total } = await listPlatformWorkspaces(deps.db, { organizationId: caller.organizationId, workspaceIds: caller.isOrgAdmin ? null : [caller.workspaceId] }, offset, limit);
    ctx.body = platformList(ctx, rows.map(presentWorkspace), total, q);
  });

  router.post('/workspaces', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(CreateWorkspaceRequest, ctx.request.body);
    const now = nowOf(deps);
    const { workspace } = await deps.db.transaction((m) =>
      createWorkspaceAsAdmin(m, caller, {
        name: body.name.trim(),
        timezone: body.timezone === undefined ? undefined : canonicalTimeZone(body.timezone)!,
        defaultLanguage: body.default_language === undefined ? undefined : canonicalLanguageTag(body.default_language)!,
        now,
      }),
    );
    ctx.status = 201;
    ctx.body = await detail(deps.db, workspace);
  });

  router.get('/workspaces/:id', auth, async (ctx) => {
    ctx.body = await detail(deps.db, await visible(ctx, principalOf(ctx)));
  });

  router.patch('/workspaces/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(UpdateWorkspaceRequest, ctx.request.body ?? {});
    const workspace = await updatePlatformWorkspace(
      deps.db,
      caller,
      ctx.params.id,
      {
        name: body.name?.trim(),
        timezone: body.timezone === undefined ? undefined : canonicalTimeZone(body.timezone)!,
        defaultLanguage: body.default_language === undefined ? undefined : canonicalLanguageTag(body.default_language)!,
      },
      nowOf(deps),
    );
    ctx.body = await detail(deps.db, workspace);
  });

  router.put('/workspaces/:id/sla-policies', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(SetSlaPoliciesRequest, ctx.request.body ?? {});
    const policies = body.policies.map((p) => ({
      priority: p.priority as PlatformTicketPriority,
      firstResponseMinutes: p.first_response_minutes,
      resolutionMinutes: p.resolution_minutes,
    }));
    const workspace = await setPlatformSlaPolicies(deps.db, caller, ctx.params.id, policies, nowOf(deps));
    ctx.body = await detail(deps.db, workspace);
  });

  router.delete('/workspaces/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    if (!confirmed(ctx.request.body, ctx.query)) throw platformInvalidField('confirm', 'must be true: send {"confirm": true} or ?confirm=true');
    const workspace = await deleteWorkspace(deps, caller, ctx.params.id, nowOf(deps));
    ctx.status = 202;
    ctx.body = await detail(deps.db, workspace);
  });

  router.post('/workspaces/:id/restore', auth, async (ctx) => {
    const caller = principalOf(ctx);
    await restoreWorkspace(deps, caller, ctx.params.id);
    ctx.body = await detail(deps.db, await visible(ctx, caller));
  });

  return router;
}
