// PUT /workspaces/{id}/sla-policies: an admin (role admin, or an organisation admin) who
// reaches the workspace replaces its SLA policies, one per priority (sla-defaults.rules.ts
// validates them). Another organisation's or an unreachable workspace is a 404, a lower
// role a 403, a workspace pending deletion a 409 (restore it first), as PATCH.
import type { Db } from '../../db/db';
import { lockPlatformWorkspace, setPlatformWorkspaceSlaPolicies } from '../../db/repositories/platform-workspaces';
import { hasRole, reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformConflict, platformForbidden, platformNotFound } from './errors';
import { validSlaPolicies } from './sla-defaults.rules';
import type { PlatformSlaPolicy, PlatformWorkspaceRecord } from './types';

export async function setPlatformSlaPolicies(
  db: Db,
  caller: PlatformCaller,
  workspaceId: string,
  policies: PlatformSlaPolicy[],
  now: Date,
): Promise<PlatformWorkspaceRecord> {
  const valid = validSlaPolicies(policies);
  return db.transaction(async (m) => {
    const workspace = await lockPlatformWorkspace(m, workspaceId);
    if (!workspace || !reachesWorkspace(caller, workspace)) throw platformNotFound('workspace', workspaceId);
    if (!hasRole(caller, 'admin')) throw platformForbidden("Only an admin can change a workspace's SLA policies");
    if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspaceId}' is scheduled for deletion; restore it first`, { status: workspace.status });
    return (await setPlatformWorkspaceSlaPolicies(m, workspaceId, valid, now))!;
  });
}
