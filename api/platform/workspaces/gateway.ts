// The workspace requests that start or change its deletion workflow
// (workflows/platform-workspace): DELETE (the row and the workflow's outbox entry in one
// transaction) and restore (the `restore` Update through the one Update path).
import { findPlatformWorkspace } from '../../../db/repositories/platform-workspaces';
import { reachesWorkspace, type PlatformCaller } from '../../../domain/platform/access.rules';
import { platformConflict, platformForbidden, platformNotFound } from '../../../domain/platform/errors';
import { scheduleWorkspaceDeletion } from '../../../domain/platform/schedule-workspace-deletion';
import type { PlatformWorkspaceRecord } from '../../../domain/platform/types';
import {
  PLATFORM_QUEUE,
  PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE,
  platformWorkspaceDeletionStart,
  platformWorkspaceDeletionWorkflowId,
  restoreUpdate,
  type WorkspaceDeletionInput,
} from '../../../workflows/platform-workspace/contract';
import type { AppDeps } from '../../deps';
import { iso } from '../../kit/dates';
import { visibleRow } from '../../kit/visible-row';
import { updateWorkflow } from '../../kit/workflow-update';
import { platformTokens } from '../auth/token-cache';

/**
 * Schedules the workspace's removal (domain/platform/schedule-workspace-deletion.ts) and
 * drops this process's cached rows of its tokens, so the next request with one of them
 * reads the workspace's new status (other processes: within the token cache's 30 s;
 * restore does the same).
 */
export async function deleteWorkspace(deps: AppDeps, caller: PlatformCaller, workspaceId: string, now: Date): Promise<PlatformWorkspaceRecord> {
  const { workspace, scheduled } = await scheduleWorkspaceDeletion(deps.db, caller, workspaceId, now, platformWorkspaceDeletionStart);
  if (scheduled) platformTokens(deps).forgetWorkspace(workspaceId);
  return workspace;
}


/**
 * Restores a workspace pending deletion: the `restore` Update to the run of its deletion
 * request; the workflow's activity sets it active and the run ends. An id the caller does
 * not reach, and a workspace already purged, are 404; one not pending deletion a 409.
 */
export async function restoreWorkspace(deps: AppDeps, caller: PlatformCaller, workspaceId: string): Promise<void> {
  const notFound = () => platformNotFound('workspace', workspaceId);
  const w = await visibleRow(findPlatformWorkspace(deps.db, workspaceId), (row) => reachesWorkspace(caller, row), notFound);
  if (!caller.isOrgAdmin) throw platformForbidden('Only an organisation admin can restore a workspace');
  const notPending = () => platformConflict(`Workspace '${workspaceId}' is not scheduled for deletion`, { status: 'active' });
  if (w.status !== 'pending_deletion' || !w.deletionRequestedAt || !w.purgeAt) throw notPending();
  const input: WorkspaceDeletionInput = { workspaceId, requestedAt: iso(w.deletionRequestedAt), purgeAt: iso(w.purgeAt) };
  await updateWorkflow(deps, {
    workflowId: platformWorkspaceDeletionWorkflowId(workspaceId, w.deletionRequestedAt),
    update: restoreUpdate,
    args: [{ actorId: caller.userId }],
    async onEnded(ended) {
      // the run has ended: the row says why
      const now = await findPlatformWorkspace(deps.db, workspaceId);
      if (!now) throw notFound(); // purged
      if (now.status !== 'pending_deletion' || !now.deletionRequestedAt || iso(now.deletionRequestedAt) !== input.requestedAt) throw notPending(); // restored meanwhile
      // still pending under this request without a run (never seen): a new run takes the restore
      return ended.restart({ workflowType: PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE, taskQueue: PLATFORM_QUEUE, args: [input] });
    },
  });
  platformTokens(deps).forgetWorkspace(workspaceId);
}
