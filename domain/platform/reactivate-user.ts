// POST /users/{id}/reactivate (docs/platform.md, "Users"): the request path's checks before
// the Update to the deactivation's workflow (which sets the user active again): an admin,
// a user in reach, deactivated less than 90 days ago at `now`. Erased, or the window over:
// 410; not deactivated: 409. The user's tokens stay revoked: they make new ones.
import type { SqlExecutor } from '../../db/db';
import { hasRole, type PlatformCaller } from './access.rules';
import { platformConflict, platformForbidden, platformGone } from './errors';
import { isAdminUser, userInReach } from './user-reach';
import type { PlatformUserView } from './user-view';
import { daysAfter, isWithin, USER_REACTIVATION_DAYS } from './windows.rules';

export const reactivationGone = (id: string) =>
  platformGone(`User '${id}' was deactivated more than ${USER_REACTIVATION_DAYS} days ago; their personal data is erased`);

/** Why the stored user cannot be reactivated at `now`, or null when they can. */
export function reactivationRefusal(user: PlatformUserView, now: Date) {
  if (user.status === 'erased') return reactivationGone(user.id);
  if (user.status !== 'deactivated' || !user.deactivatedAt) return platformConflict(`User '${user.id}' is not deactivated`);
  if (!isWithin(now, daysAfter(new Date(user.deactivatedAt), USER_REACTIVATION_DAYS))) return reactivationGone(user.id);
  return null;
}

export async function checkReactivation(executor: SqlExecutor, caller: PlatformCaller, id: string, now: Date): Promise<PlatformUserView> {
  if (!hasRole(caller, 'admin')) throw platformForbidden('Only an admin reactivates users');
  const user = await userInReach(executor, caller, id);
  if (isAdminUser(user) && user.isOrgAdmin && !caller.isOrgAdmin) throw platformForbidden('Only an organisation admin reactivates an organisation admin');
  const refusal = reactivationRefusal(user, now);
  if (refusal) throw refusal;
  return user;
}
