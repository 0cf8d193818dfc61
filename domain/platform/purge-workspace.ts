// The end of a workspace's grace (its deletion workflow's timer): the workspace and all
// its data go in one transaction (db/repositories/platform-workspaces.ts
// deletePlatformWorkspaceWithData: channels, memberships, tokens, tickets, replies,
// automations (their foreign key cascades with the workspace's row), its platform events
// and the pending workflow starts of its tickets and tokens; its webhook endpoints with
// their delivery logs, db/repositories/webhook-endpoints.ts), if it is
// still pending deletion under the request the workflow keeps. Otherwise nothing:
// restored (or deleted again, a newer request with its own run) or already gone.
// The organisation's users stay (they belong to the organisation, not to the workspace).
import type { Db } from '../../db/db';
import { deletePlatformWorkspaceWithData, lockPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { purgeEndpointsOfWorkspace } from '../../db/repositories/webhook-endpoints';

export interface PurgeOutboxIds {
  ticket(ticketId: string): string;
  token(tokenId: string): string;
}

export async function purgePlatformWorkspace(db: Db, workspaceId: string, requestedAt: Date, outboxIdsOf: PurgeOutboxIds): Promise<'purged' | 'not_pending'> {
  return db.transaction(async (m) => {
    const workspace = await lockPlatformWorkspace(m, workspaceId);
    if (!workspace || workspace.status !== 'pending_deletion') return 'not_pending';
    if (workspace.deletionRequestedAt === null || new Date(workspace.deletionRequestedAt).getTime() !== requestedAt.getTime()) return 'not_pending';
    await purgeEndpointsOfWorkspace(m, 'platform', workspaceId); // their foreign key would refuse the workspace's delete
    await deletePlatformWorkspaceWithData(m, workspaceId, outboxIdsOf);
    return 'purged';
  });
}
