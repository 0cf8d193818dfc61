import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { parse } from '../../kit/validation';
import { z } from '../../zod';
import { findWorkspaceSettings, updateWorkspaceSettings } from '../../../db/repositories/workspaces';
import { resolveSettings, type WorkspaceSettings } from '../../../lib/workspace-settings';
import { requireScope, requireWorkspace, type Scope } from '../access';
import { workspaceIdParam } from '../players/params';
import { SettingsPatchBody, WorkspaceSettingsResponse } from './schema';

// checked before requireWorkspace: a NUL in the id would otherwise reach Postgres
const PathParams = z.object({ workspace_id: workspaceIdParam() });

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 merge: null deletes (back to the default), objects merge, the rest replaces. */
export function mergePatch(target: unknown, patch: Json): Json {
  const out: Json = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isObject(value)) out[key] = mergePatch(out[key], value);
    else out[key] = value;
  }
  return out;
}

/** Stored settings hold only the overrides, so later changes to a default still apply. */
function present(workspaceId: string, stored: unknown): WorkspaceSettings & { workspaceId: string } {
  return { workspaceId, ...resolveSettings(isObject(stored) ? (stored as Partial<WorkspaceSettings>) : null) };
}

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
    ctx.body = present(id, await findWorkspaceSettings(deps.db, id));
  });

  router.patch('/workspaces/:workspace_id/settings', async (ctx) => {
    const id = await workspaceOf(ctx, 'admin:all');
    const patch = parse(SettingsPatchBody, ctx.request.body);
    ctx.body = await deps.db.transaction((m) =>
      updateWorkspaceSettings(m, id, (stored) => {
        const merged = mergePatch(stored, patch);
        // Validate the result, not just the patch: a new first-response target may
        // conflict with a resolution target stored earlier.
        return { settings: merged, result: parse(WorkspaceSettingsResponse, present(id, merged)) };
      }),
    );
  });

  return router;
}
