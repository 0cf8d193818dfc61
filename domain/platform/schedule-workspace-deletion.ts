// DELETE /workspaces/{id}: an organisation admin schedules the workspace's removal. In one
// transaction: the row becomes pending_deletion (disabled: api/platform/auth/middleware.ts
// refuses its tokens outside /workspaces), purge_at = now + 30 days
// (WORKSPACE_DELETION_GRACE_DAYS), and the outbox entry of its deletion workflow
// (workflows/platform-workspace), whose timer removes it at purge_at. A workspace already
// pending deletion is answered as it is (`scheduled: false`): the same grace, no new timer.
import type { Db } from '../../db/db';
import { lockPlatformWorkspace, markPlatformWorkspacePendingDeletion } from '../../db/repositories/platform-workspaces';
import { enqueueWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import { reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformForbidden, platformNotFound } from './errors';
import type { PlatformWorkspaceRecord } from './types';
import { daysAfter, WORKSPACE_DELETION_GRACE_DAYS } from './windows.rules';

/** The deletion workflow's outbox entry (built by its contract: platformWorkspaceDeletionStart). */
export type DeletionStartOf = (d: { workspaceId: string; requestedAt: string; purgeAt: string }) => OutboxStart;

export async function scheduleWorkspaceDeletion(
  db: Db,
  caller: PlatformCaller,
  workspaceId: string,
  now: Date,
  startOf: DeletionStartOf,
): Promise<{ workspace: PlatformWorkspaceRecord; scheduled: boolean }> {
  return db.transaction(async (m) => {
    const workspace = await lockPlatformWorkspace(m, workspaceId);
    if (!workspace || !reachesWorkspace(caller, workspace)) throw platformNotFound('workspace', workspaceId);
    if (!caller.isOrgAdmin) throw platformForbidden('Only an organisation admin can delete a workspace');
    if (workspace.status === 'pending_deletion') return { workspace, scheduled: false };
    const purgeAt = daysAfter(now, WORKSPACE_DELETION_GRACE_DAYS);
    const pending = await markPlatformWorkspacePendingDeletion(m, workspaceId, now, purgeAt);
    await enqueueWorkflowStart(m, startOf({ workspaceId, requestedAt: now.toISOString(), purgeAt: purgeAt.toISOString() }));
    return { workspace: pending, scheduled: true };
  });
}
