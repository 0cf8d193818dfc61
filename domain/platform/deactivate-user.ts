// DELETE /users/{id} (docs/platform.md, "Users"): an admin deactivates a user of theirs,
// never themselves nor the organisation's last active admin (409); an organisation admin
// only another organisation admin. In the caller's transaction: every token of the user is
// refused at once (the Redis markers first, `markRevoked`, then the rows), open invitation
// links are void, the user is `deactivated` (counted: each deactivation has its own
// workflow), and the open tickets that the deactivation's workflow will unassign are
// counted. The gateway adds that workflow's outbox entry to the same transaction.
import type { Executor } from '../../db/db';
import {
  countOtherActiveAdmins,
  deactivatePlatformUser,
  findPlatformUserView,
  countOpenTicketsAssignedTo,
  lockPlatformOrganizationAdmins,
  voidActivationTokens,
} from '../../db/repositories/platform-users';
import { hasRole, type PlatformCaller } from './access.rules';
import { platformConflict, platformForbidden, platformGone } from './errors';
import { revokeUserTokens } from './revoke-user-tokens';
import { isAdminUser, userInReach } from './user-reach';
import type { PlatformUserView } from './user-view';

export interface Deactivation {
  user: PlatformUserView;
  /** which deactivation of the user this is (names its workflow) */
  deactivation: number;
  deactivatedAt: Date;
  /** open tickets (open or pending, not deleted) assigned to the user now */
  openTickets: number;
  revokedTokenIds: string[];
}

export async function deactivateUser(
  m: Executor,
  caller: PlatformCaller,
  id: string,
  markRevoked: (tokenIds: string[]) => Promise<void>,
  now: Date,
): Promise<Deactivation> {
  if (!hasRole(caller, 'admin')) throw platformForbidden('Only an admin deactivates users');
  await lockPlatformOrganizationAdmins(m, caller.organizationId);
  const target = await userInReach(m, caller, id, { lock: true });
  if (target.id === caller.userId) throw platformConflict('You cannot deactivate yourself');
  if (target.isOrgAdmin && !caller.isOrgAdmin) throw platformForbidden('Only an organisation admin deactivates an organisation admin');
  if (target.status === 'erased') throw platformGone(`User '${id}' was erased`);
  if (target.status === 'deactivated') throw platformConflict(`User '${id}' is already deactivated`);
  if (isAdminUser(target) && target.status === 'active' && (await countOtherActiveAdmins(m, target.organizationId, target.id)) === 0) {
    throw platformConflict(`User '${id}' is the organisation's last active admin`);
  }
  const tokenIds = await revokeUserTokens(m, target.id, markRevoked, now);
  const deactivation = (await deactivatePlatformUser(m, target.id, now))!;
  await voidActivationTokens(m, target.id, now);
  const openTickets = await countOpenTicketsAssignedTo(m, target.id);
  return { user: (await findPlatformUserView(m, target.id))!, deactivation, deactivatedAt: now, openTickets, revokedTokenIds: tokenIds };
}
