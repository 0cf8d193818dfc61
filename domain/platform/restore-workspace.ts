// The restore step of a workspace's deletion workflow (its `restore` Update's activity):
// the workspace becomes active again, its deletion cleared, if it is still pending under
// the deletion request the workflow keeps. Idempotent: a repeat after the row is active
// with no deletion answers the same. Gone: 404; restored or re-deleted since: 409.
import type { Db } from '../../db/db';
import { clearPlatformWorkspaceDeletion, lockPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { platformConflict, platformNotFound } from './errors';
import type { PlatformWorkspaceRecord } from './types';

export async function restorePlatformWorkspace(db: Db, workspaceId: string, requestedAt: Date, now: Date): Promise<PlatformWorkspaceRecord> {
  return db.transaction(async (m) => {
    const workspace = await lockPlatformWorkspace(m, workspaceId);
    if (!workspace) throw platformNotFound('workspace', workspaceId);
    if (workspace.status === 'active' && workspace.deletionRequestedAt === null) return workspace; // a repeat of this step
    const same = workspace.deletionRequestedAt !== null && new Date(workspace.deletionRequestedAt).getTime() === requestedAt.getTime();
    if (workspace.status !== 'pending_deletion' || !same) throw platformConflict(`Workspace '${workspaceId}' is not scheduled for deletion`);
    return clearPlatformWorkspaceDeletion(m, workspaceId, now);
  });
}
