// The activities of a workspace's deletion workflow (workflows/platform-workspace/contract.ts):
// the purge at the end of the grace and the restore within it, over the domain commands.
import type { Db } from '../../db/db';
import { purgePlatformWorkspace } from '../../domain/platform/purge-workspace';
import { restorePlatformWorkspace } from '../../domain/platform/restore-workspace';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import type { PlatformWorkspaceActivities } from '../../workflows/platform-workspace/contract';
import { withDomainFailures } from '../failures';

export function createPlatformWorkspaceActivities({ db }: { db: Db }): PlatformWorkspaceActivities {
  return withDomainFailures<PlatformWorkspaceActivities>({
    async purgePlatformWorkspace({ workspaceId, requestedAt }) {
      const outcome = await purgePlatformWorkspace(db, workspaceId, new Date(requestedAt), { ticket: platformTicketWorkflowId, token: platformTokenExpiryWorkflowId });
      return { outcome };
    },
    async restorePlatformWorkspace({ workspaceId, requestedAt }) {
      const workspace = await restorePlatformWorkspace(db, workspaceId, new Date(requestedAt), new Date());
      return { workspaceId: workspace.id, status: 'active' as const };
    },
  });
}
