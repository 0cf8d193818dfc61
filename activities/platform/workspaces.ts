// The activities of a workspace's deletion workflow (workflows/platform-workspace/contract.ts):
// the purge at the end of the grace and the restore within it, over the domain commands.
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Db } from '../../db/db';
import { findPlatformWorkspace, listRunningPlatformTicketIds } from '../../db/repositories/platform-workspaces';
import { purgePlatformWorkspace } from '../../domain/platform/purge-workspace';
import { restorePlatformWorkspace } from '../../domain/platform/restore-workspace';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import type { PlatformWorkspaceActivities } from '../../workflows/platform-workspace/contract';
import { withDomainFailures } from '../failures';
import { mapLimited } from '../../lib/map-limited';

/** Cancels at most this many ticket workflows at once. */
const CANCELS_IN_FLIGHT = 16;

export function createPlatformWorkspaceActivities({ db, client }: { db: Db; client?: Client }): PlatformWorkspaceActivities {
  /**
   * Before the data goes, the workspace's ticket workflows that still run are cancelled:
   * nothing could reach them once their rows are gone, and an open ticket's run would
   * otherwise wait for a change for ever. Only while the workspace is still pending under
   * this request (the deletion workflow serialises restore and purge, so it cannot be
   * restored between this check and the purge). Idempotent: a retry cancels what is left
   * (an ended run is skipped).
   */
  async function cancelTicketWorkflows(workspaceId: string, requestedAt: Date): Promise<void> {
    if (!client) throw new Error('the platform activities have no Temporal client');
    const ws = await findPlatformWorkspace(db, workspaceId);
    if (!ws || ws.status !== 'pending_deletion' || ws.deletionRequestedAt === null) return;
    if (new Date(ws.deletionRequestedAt).getTime() !== requestedAt.getTime()) return;
    const ids = await listRunningPlatformTicketIds(db, workspaceId);
    await mapLimited(ids, CANCELS_IN_FLIGHT, async (id) => {
      try {
        await client.workflow.getHandle(platformTicketWorkflowId(id)).cancel();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // ended, or never started
      }
    });
  }

  return withDomainFailures<PlatformWorkspaceActivities>({
    async purgePlatformWorkspace({ workspaceId, requestedAt }) {
      await cancelTicketWorkflows(workspaceId, new Date(requestedAt));
      const outcome = await purgePlatformWorkspace(db, workspaceId, new Date(requestedAt), { ticket: platformTicketWorkflowId, token: platformTokenExpiryWorkflowId });
      return { outcome };
    },
    async restorePlatformWorkspace({ workspaceId, requestedAt }) {
      const workspace = await restorePlatformWorkspace(db, workspaceId, new Date(requestedAt), new Date());
      return { workspaceId: workspace.id, status: 'active' as const };
    },
  });
}
