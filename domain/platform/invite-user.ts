// POST /users/invite (docs/platform.md, "Users"): admins invite any role, managers agents
// only, agents nobody. A new email becomes an `invited` user and a member of the workspace;
// an invited one gets a fresh link (the older ones void) and the newest invitation's name
// and role; an active or deactivated one is a 409. Inside the caller's transaction, which
// also holds the invitation email's outbox entry (the gateway adds it).
import type { Executor } from '../../db/db';
import { addPlatformMembership, findPlatformUserByEmail, findPlatformUserView, insertActivationToken, insertPlatformUser, updateInvitedPlatformUser, voidActivationTokens } from '../../db/repositories/platform-users';
import { findPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { newId } from '../../lib/ids';
import { hasRole, reachesWorkspace, type PlatformCaller } from './access.rules';
import { ACTIVATION_LINK_DAYS, activationTokenOf, hashActivationToken } from './activation-token';
import { platformConflict, platformForbidden, platformNotFound } from './errors';
import type { PlatformRole } from './types';
import type { PlatformUserView } from './user-view';
import { daysAfter } from './windows.rules';

export interface InviteUserInput {
  email: string;
  name: string;
  role: PlatformRole;
  workspaceId: string;
  /** the new link's id (its token is derived from it with `tokenKey`) */
  linkId: string;
  tokenKey: Buffer;
  now: Date;
}

export interface Invitation {
  user: PlatformUserView;
  linkId: string;
  expiresAt: Date;
}

/** Whether `caller` may invite (or re-invite) someone as `role`. */
export function mayInvite(caller: PlatformCaller, role: PlatformRole): boolean {
  return hasRole(caller, 'admin') || (hasRole(caller, 'manager') && role === 'agent');
}

export async function invitePlatformUser(m: Executor, caller: PlatformCaller, input: InviteUserInput): Promise<Invitation> {
  if (!hasRole(caller, 'manager')) throw platformForbidden('Agents cannot invite users');
  if (!mayInvite(caller, input.role)) throw platformForbidden('A manager invites agents only');
  const workspace = await findPlatformWorkspace(m, input.workspaceId);
  if (!workspace || !reachesWorkspace(caller, workspace)) throw platformNotFound('workspace', input.workspaceId);
  if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspace.id}' is scheduled for deletion`);

  const email = input.email.toLowerCase();
  const existing = await findPlatformUserByEmail(m, caller.organizationId, email);
  let userId: string;
  if (existing) {
    if (existing.status === 'active') throw platformConflict(`A user with email '${email}' is already active in this organisation`, { user_id: existing.id });
    if (existing.status === 'deactivated') {
      throw platformConflict(`The user with email '${email}' is deactivated; reactivate them with POST /platform/v1/users/${existing.id}/reactivate`, { user_id: existing.id });
    }
    if (!mayInvite(caller, existing.role)) throw platformForbidden('A manager invites agents only');
    await updateInvitedPlatformUser(m, existing.id, { name: input.name, role: input.role, at: input.now });
    await voidActivationTokens(m, existing.id, input.now);
    userId = existing.id;
  } else {
    try {
      const made = await insertPlatformUser(m, {
        id: newId('usr', input.now.getTime()),
        organizationId: caller.organizationId,
        email,
        name: input.name,
        role: input.role,
        isOrgAdmin: false,
        status: 'invited',
        createdAt: input.now,
      });
      userId = made.id;
    } catch (err) {
      // the same email invited at the same moment by another request: its transaction won
      if ((err as { code?: string }).code === '23505') throw platformConflict(`A user with email '${email}' is being invited right now; retry`);
      throw err;
    }
  }
  await addPlatformMembership(m, workspace.id, userId);
  const expiresAt = daysAfter(input.now, ACTIVATION_LINK_DAYS);
  await insertActivationToken(m, {
    tokenHash: hashActivationToken(activationTokenOf(input.tokenKey, input.linkId)),
    userId,
    workspaceId: workspace.id,
    expiresAt,
    createdAt: input.now,
  });
  return { user: (await findPlatformUserView(m, userId))!, linkId: input.linkId, expiresAt };
}
