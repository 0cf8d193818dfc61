// POST /workspaces: an organisation admin adds a workspace to their organisation (its
// default plan and one channel of each type: create-workspace.ts) and works in it at once
// (a membership). Anyone else is refused (403). Inside the caller's transaction.
import type { Executor } from '../../db/db';
import { findPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { addPlatformMembership } from '../../db/repositories/platform-users';
import type { PlatformCaller } from './access.rules';
import { createPlatformWorkspace } from './create-workspace';
import { platformForbidden } from './errors';
import type { PlatformChannelRecord, PlatformWorkspaceRecord } from './types';

export interface NewWorkspaceInput {
  name: string;
  /** canonical IANA zone (workspace-settings.rules.ts); default UTC */
  timezone?: string;
  /** canonical BCP 47 tag; default en */
  defaultLanguage?: string;
  now: Date;
}

export async function createWorkspaceAsAdmin(
  executor: Executor,
  caller: PlatformCaller,
  input: NewWorkspaceInput,
): Promise<{ workspace: PlatformWorkspaceRecord; channels: PlatformChannelRecord[] }> {
  if (!caller.isOrgAdmin) throw platformForbidden('Only an organisation admin can create workspaces');
  // a token whose workspace was purged may still be cached for a few seconds (api/platform/auth/token-cache.ts)
  if (!(await findPlatformWorkspace(executor, caller.workspaceId))) throw platformForbidden(`The token's workspace '${caller.workspaceId}' has been removed`);
  const made = await createPlatformWorkspace(executor, {
    organizationId: caller.organizationId,
    name: input.name,
    timezone: input.timezone,
    defaultLanguage: input.defaultLanguage,
    now: input.now,
  });
  await addPlatformMembership(executor, made.workspace.id, caller.userId);
  return made;
}
