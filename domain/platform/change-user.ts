// PATCH /users/{id} (docs/platform.md, "Users"): a role change is an admin's (an
// organisation admin's role only another organisation admin's), a name the user's own or
// an admin's; nobody demotes the organisation's last active admin (409). A role below
// admin also ends organisation admin rights. The caller's transaction.
import type { Executor } from '../../db/db';
import { countOtherActiveAdmins, findPlatformUserView, lockPlatformOrganizationAdmins, updatePlatformUser } from '../../db/repositories/platform-users';
import { hasRole, type PlatformCaller } from './access.rules';
import { platformConflict, platformForbidden } from './errors';
import type { PlatformRole } from './types';
import { isAdminUser, userInReach } from './user-reach';
import type { PlatformUserView } from './user-view';

export interface UserChange {
  name?: string;
  role?: PlatformRole;
  now: Date;
}

export async function changePlatformUser(m: Executor, caller: PlatformCaller, id: string, change: UserChange): Promise<{ user: PlatformUserView; roleChanged: boolean }> {
  const wantsRole = change.role !== undefined;
  if (wantsRole) await lockPlatformOrganizationAdmins(m, caller.organizationId);
  const target = await userInReach(m, caller, id, { lock: true });
  const roleChanged = wantsRole && change.role !== target.role;
  if (roleChanged) {
    if (!hasRole(caller, 'admin')) throw platformForbidden('Only an admin changes roles');
    if (target.isOrgAdmin && !caller.isOrgAdmin) throw platformForbidden("Only an organisation admin changes an organisation admin's role");
  }
  if (change.name !== undefined && target.id !== caller.userId && !hasRole(caller, 'admin')) {
    throw platformForbidden("Only an admin changes another user's name");
  }
  if (target.status === 'deactivated' || target.status === 'erased') throw platformConflict(`User '${id}' is ${target.status}`);
  if (roleChanged && change.role !== 'admin' && isAdminUser(target) && target.status === 'active') {
    if ((await countOtherActiveAdmins(m, target.organizationId, target.id)) === 0) {
      throw platformConflict(`User '${id}' is the organisation's last active admin; make another user admin first`);
    }
  }
  await updatePlatformUser(m, target.id, { name: change.name, role: roleChanged ? change.role : undefined, at: change.now });
  return { user: (await findPlatformUserView(m, target.id))!, roleChanged };
}
