// POST /users/activate (docs/platform.md, "Users"): the single-use link of an invitation
// (or of a reactivation) makes the invited user active and gives them a first `service_test_` token in the
// invitation's workspace, in one transaction. An unknown, used, voided or expired link takes
// the same path (hash, look up, check) and gets the same 400.
import type { Db } from '../../db/db';
import { activatePlatformUser, findActivationToken, findPlatformUserView, spendActivationToken } from '../../db/repositories/platform-users';
import { hashActivationToken } from './activation-token';
import { platformInvalidField } from './errors';
import { issuePlatformToken } from './issue-token';
import type { PlatformTokenRecord } from './types';
import type { PlatformUserView } from './user-view';

export const invalidActivationLink = () =>
  platformInvalidField('token', 'The activation link is unknown, already used or expired; ask an admin for a new invitation');

export async function activateInvitedUser(db: Db, token: string, now: Date): Promise<{ user: PlatformUserView; token: PlatformTokenRecord; secret: string }> {
  return db.transaction(async (m) => {
    const hash = hashActivationToken(token);
    const found = await findActivationToken(m, hash);
    if (!found) throw invalidActivationLink();
    // the user's row, then the link's: the order a deactivation (which voids links) takes them in
    const user = await findPlatformUserView(m, found.userId, { lock: true });
    const link = await findActivationToken(m, hash, { lock: true });
    if (!link || link.usedAt || link.expiresAt.getTime() <= now.getTime()) throw invalidActivationLink();
    const workspaceId = link.workspaceId ?? user?.workspaceIds[0];
    // an invited user's invitation, or a reactivated (active) user's sign-in link
    // (domain/platform/reactivate-with-sign-in-link.ts): every other link was spent or voided
    if (!user || (user.status !== 'invited' && user.status !== 'active') || !workspaceId) throw invalidActivationLink();
    if (!(await spendActivationToken(m, link.tokenHash, now))) throw invalidActivationLink();
    if (user.status === 'invited' && !(await activatePlatformUser(m, user.id, now))) throw invalidActivationLink();
    const issued = await issuePlatformToken(m, {
      organizationId: user.organizationId,
      workspaceId,
      userId: user.id,
      name: 'First token',
      environment: 'test',
      now,
    });
    return { user: (await findPlatformUserView(m, user.id))!, ...issued };
  });
}
