// POST /auth/tokens: a token for the caller themself, in a workspace they reach and work in
// (an organisation admin: any active workspace of the organisation). The token acts with its
// creator's role. Inside the caller's transaction, so its expiry timer's outbox entry
// commits with it.
import type { Executor } from '../../db/db';
import { findPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { isPlatformMember } from '../../db/repositories/platform-users';
import { reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformConflict, platformNotFound } from './errors';
import { issuePlatformToken } from './issue-token';
import type { PlatformEnvironment, PlatformTokenRecord } from './types';
import type { TokenExpiryDays } from './windows.rules';

export interface CreateTokenInput {
  name: string;
  workspaceId: string;
  environment: PlatformEnvironment;
  expiresInDays: TokenExpiryDays | null;
  now: Date;
}

export async function createPlatformToken(
  executor: Executor,
  caller: PlatformCaller,
  input: CreateTokenInput,
): Promise<{ token: PlatformTokenRecord; secret: string }> {
  const workspace = await findPlatformWorkspace(executor, input.workspaceId);
  if (!workspace || !reachesWorkspace(caller, workspace) || !(await isPlatformMember(executor, workspace.id, caller.userId))) {
    throw platformNotFound('workspace', input.workspaceId);
  }
  if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspace.id}' is scheduled for deletion`);
  return issuePlatformToken(executor, {
    organizationId: caller.organizationId,
    workspaceId: workspace.id,
    userId: caller.userId,
    name: input.name,
    environment: input.environment,
    expiresInDays: input.expiresInDays,
    now: input.now,
  });
}
