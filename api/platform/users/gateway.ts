// The users resource's workflows (docs/platform.md, "Users"): the invitation email and the
// deactivation are started from the workflow-start outbox in the transaction that changes
// the user; a reactivation is an Update to the deactivation's workflow through the one
// Update path (api/kit/workflow-update.ts).
import { randomUUID } from 'node:crypto';
import { enqueueWorkflowStart } from '../../../db/repositories/workflow-starts';
import { findPlatformUserView } from '../../../db/repositories/platform-users';
import type { PlatformCaller } from '../../../domain/platform/access.rules';
import { activationTokenKey } from '../../../domain/platform/activation-token';
import { deactivateUser, type Deactivation } from '../../../domain/platform/deactivate-user';
import { invitePlatformUser, type Invitation } from '../../../domain/platform/invite-user';
import { checkReactivation, reactivationRefusal } from '../../../domain/platform/reactivate-user';
import type { PlatformRole } from '../../../domain/platform/types';
import { platformNotFound } from '../../../domain/platform/errors';
import type { PlatformUserView } from '../../../domain/platform/user-view';
import { masterKey } from '../../../lib/crypto/master-key';
import {
  PLATFORM_QUEUE,
  platformInvitationStart,
  reactivateUpdate,
  userDeactivationStart,
  userDeactivationWorkflowId,
} from '../../../workflows/platform-user/contract';
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { updateWorkflow } from '../../kit/workflow-update';
import { platformTokens } from '../auth/token-cache';

/** The invited user, their link stored hashed and its email's workflow in the outbox, in one transaction. */
export async function inviteUser(deps: AppDeps, caller: PlatformCaller, input: { email: string; name: string; role: PlatformRole; workspaceId: string }): Promise<Invitation> {
  const tokenKey = activationTokenKey(masterKey(deps.config));
  const now = nowOf(deps);
  return deps.db.transaction(async (m) => {
    const invitation = await invitePlatformUser(m, caller, { ...input, linkId: randomUUID(), tokenKey, now });
    await enqueueWorkflowStart(m, platformInvitationStart({ userId: invitation.user.id, linkId: invitation.linkId }));
    return invitation;
  });
}

/** The user deactivated, their tokens revoked and the deactivation's workflow in the outbox, in one transaction. */
export async function deactivate(deps: AppDeps, caller: PlatformCaller, id: string): Promise<Deactivation> {
  return deps.db.transaction(async (m) => {
    const d = await deactivateUser(m, caller, id, (ids) => platformTokens(deps).revoke(ids), nowOf(deps));
    await enqueueWorkflowStart(m, userDeactivationStart({ userId: d.user.id, deactivation: d.deactivation, deactivatedAt: d.deactivatedAt.toISOString() }));
    return d;
  });
}

/**
 * Within the 90 days: the `reactivate` Update of the user's current deactivation; its
 * handler sets the user active and the workflow ends. A workflow that has ended answers
 * from the row: erased 410, not deactivated 409.
 */
export async function reactivate(deps: AppDeps, caller: PlatformCaller, id: string): Promise<PlatformUserView> {
  const user = await checkReactivation(deps.db, caller, id, nowOf(deps));
  await updateWorkflow(deps, {
    workflowId: userDeactivationWorkflowId(user.id, user.deactivations),
    update: reactivateUpdate,
    args: [],
    taskQueue: PLATFORM_QUEUE,
    onEnded: async () => {
      const stored = await findPlatformUserView(deps.db, id);
      if (!stored) throw platformNotFound('user', id);
      const refusal = reactivationRefusal(stored, nowOf(deps));
      if (refusal) throw refusal;
      deps.logger.error({ userId: id, deactivations: stored.deactivations }, 'reactivation failed: the deactivation workflow is gone while the user is deactivated');
      throw errors.unavailable();
    },
  });
  return (await findPlatformUserView(deps.db, id))!;
}
