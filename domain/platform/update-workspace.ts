// PATCH /workspaces/{id}: an admin (role admin, or an organisation admin) who reaches the
// workspace changes its name, timezone or default language. Another organisation's or an
// unreachable workspace is a 404, a lower role a 403, a workspace pending deletion a 409
// (restore it first).
import type { Db } from '../../db/db';
import { lockPlatformWorkspace, updatePlatformWorkspaceSettings, type PlatformWorkspaceChanges } from '../../db/repositories/platform-workspaces';
import { hasRole, reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformConflict, platformForbidden, platformNotFound } from './errors';
import type { PlatformWorkspaceRecord } from './types';

export async function updatePlatformWorkspace(
  db: Db,
  caller: PlatformCaller,
  workspaceId: string,
  changes: PlatformWorkspaceChanges,
  now: Date,
): Promise<PlatformWorkspaceRecord> {
  return db.transaction(async (m) => {
    const workspace = await lockPlatformWorkspace(m, workspaceId);
    if (!workspace || !reachesWorkspace(caller, workspace)) throw platformNotFound('workspace', workspaceId);
    if (!hasRole(caller, 'admin')) throw platformForbidden('Only an admin can change a workspace');
    if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspaceId}' is scheduled for deletion; restore it first`, { status: workspace.status });
    return (await updatePlatformWorkspaceSettings(m, workspaceId, changes, now))!;
  });
}
