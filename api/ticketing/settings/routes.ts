import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { parse } from '../../kit/validation';
import { z } from '../../zod';
import { findWorkspaceSettings } from '../../../db/repositories/workspaces';
import { patchWorkspaceSettings } from '../../../domain/workspaces/update-settings';
import { requireScope, requireWorkspace, type Scope } from '../access';
import { workspaceIdParam } from '../fields';
import { presentSettings } from './presenters';
import { SettingsPatchBody, WorkspaceSettingsResponse } from './schema';

// checked before requireWorkspace: a NUL in the id would otherwise reach Postgres
const PathParams = z.object({ workspace_id: workspaceIdParam() });

export function settingsRouter(deps: AppDeps): Router {
  const router = new Router();

  async function workspaceOf(ctx: Context, scope: Scope): Promise<string> {
    const a = requireScope(ctx, scope);
    // workspace configuration is staff business, not player-owned data
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot read or change workspace settings');
    const { workspace_id: id } = parse(PathParams, ctx.params);
    await requireWorkspace(ctx, deps, id);
    return id;
  }

  router.get('/workspaces/:workspace_id/settings', async (ctx) => {
    const id = await workspaceOf(ctx, 'tickets:read');
    ctx.body = presentSettings(id, await findWorkspaceSettings(deps.db, id));
  });

  router.patch('/workspaces/:workspace_id/settings', async (ctx) => {
    const id = await workspaceOf(ctx, 'admin:all');
    const patch = parse(SettingsPatchBody, ctx.request.body);
    // the whole result is checked (a 400 names the conflict), inside the transaction that stores it
    ctx.body = await deps.db.transaction((m) =>
      patchWorkspaceSettings(m, id, patch, (merged) => parse(WorkspaceSettingsResponse, presentSettings(id, merged))),
    );
  });

  return router;
}
