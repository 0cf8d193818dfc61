// What callers know about a platform workspace's deletion (docs/platform.md, "Workspaces"):
// one workflow per deletion request, started from the workflow-start outbox in the
// transaction that marks the workspace pending_deletion. It sleeps until purge_at (30 days:
// domain/platform/windows.rules.ts), then removes the workspace with all its data; a
// `restore` Update within the grace cancels it (the one Update path, api/kit/workflow-update.ts).
//
// The id carries the request's instant (`platform-workspace-deletion/<ws_id>/<ms>`): the
// outbox starts an id once ever (lib/temporal/start-once.ts, REJECT_DUPLICATE), so a
// workspace deleted, restored and deleted again needs a new id for its second timer. The
// instant is the row's deletion_requested_at, so the API finds the run from the row.
import { defineUpdate } from '@temporalio/workflow';
import type { WorkflowStartEntry } from '../start-entry';
import { PLATFORM_QUEUE } from '../platform-token/contract';

export { PLATFORM_QUEUE };
export const PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE = 'platformWorkspaceDeletionWorkflow';

/** The deletion run of a workspace for the request made at `requestedAt` (its deletion_requested_at). */
export const platformWorkspaceDeletionWorkflowId = (workspaceId: string, requestedAt: Date | string) =>
  `platform-workspace-deletion/${workspaceId}/${new Date(requestedAt).getTime()}`;

export interface WorkspaceDeletionInput {
  workspaceId: string;
  /** ISO: the row's deletion_requested_at, which names this request */
  requestedAt: string;
  /** ISO: when the workspace is removed */
  purgeAt: string;
}

/** The input and ids of one deletion; no names, no settings (docs/workflows.md, "What goes into a history"). */
export interface WorkspaceDeletionRef {
  workspaceId: string;
  requestedAt: string;
}

export interface PlatformWorkspaceActivities {
  /**
   * Removes the workspace with all its data in one transaction, if it is still pending
   * deletion under this request; `not_pending` when it was restored or is gone already.
   */
  purgePlatformWorkspace(ref: WorkspaceDeletionRef): Promise<{ outcome: 'purged' | 'not_pending' }>;
  /**
   * Sets the workspace active again and clears its deletion; refuses `not_found` when it
   * is gone and `conflict` when it is no longer pending under this request.
   */
  restorePlatformWorkspace(ref: WorkspaceDeletionRef & { actorId: string }): Promise<RestoreReply>;
}

export interface RestoreReply {
  workspaceId: string;
  status: 'active';
}

export type WorkspaceDeletionResult = 'purged' | 'restored' | 'gone';

/** Restores the workspace within its grace: the run ends. Refused once the purge has begun (404). */
export const restoreUpdate = defineUpdate<RestoreReply, [{ actorId: string }]>('restore');

export function platformWorkspaceDeletionStart(input: WorkspaceDeletionInput): WorkflowStartEntry<WorkspaceDeletionInput> {
  return {
    workflowId: platformWorkspaceDeletionWorkflowId(input.workspaceId, input.requestedAt),
    workflowType: PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE,
    taskQueue: PLATFORM_QUEUE,
    args: [input],
  };
}
