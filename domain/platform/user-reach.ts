// Which platform users a caller reaches (docs/platform.md, "Users"): an organisation admin
// every user of the organisation; anyone else the members of their token's workspace.
// Another organisation's user and one out of reach are the same 404.
import type { SqlExecutor } from '../../db/db';
import { findPlatformUserView } from '../../db/repositories/platform-users';
import type { PlatformCaller } from './access.rules';
import { platformNotFound } from './errors';
import type { PlatformUserView } from './user-view';

/** Whether the caller reaches `user`. */
export const reachesUser = (caller: PlatformCaller, user: Pick<PlatformUserView, 'organizationId' | 'workspaceIds'>): boolean =>
  user.organizationId === caller.organizationId && (caller.isOrgAdmin || user.workspaceIds.includes(caller.workspaceId));

/** The user `id` if the caller reaches them, else the 404; `lock` takes the row for the transaction. */
export async function userInReach(executor: SqlExecutor, caller: PlatformCaller, id: string, opts: { lock?: boolean } = {}): Promise<PlatformUserView> {
  const user = await findPlatformUserView(executor, id, opts);
  if (!user || !reachesUser(caller, user)) throw platformNotFound('user', id);
  return user;
}

/** Whether the user counts as an admin for the last-admin rule. */
export const isAdminUser = (u: Pick<PlatformUserView, 'role' | 'isOrgAdmin'>): boolean => u.role === 'admin' || u.isOrgAdmin;
