// The reactivation step of a user's deactivation workflow (docs/platform.md, "Users"): the
// user is active again (invited, if they never activated) and, since their tokens stay
// revoked and a token is only ever made with another token, a user who was active gets a
// single-use sign-in link by email, in the same transaction: POST /users/activate with it
// answers a first `service_test_` token, as an invitation's link does. The link's id is
// fixed by the user and the deactivation, so a retried step makes the same link once.
import type { Db } from '../../db/db';
import { findPlatformUserView, insertActivationToken, reactivatePlatformUser } from '../../db/repositories/platform-users';
import { enqueueWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import { ACTIVATION_LINK_DAYS, activationTokenOf, hashActivationToken } from './activation-token';
import { daysAfter } from './windows.rules';

export interface ReactivationInput {
  userId: string;
  /** which deactivation of the user this ends */
  deactivation: number;
  at: Date;
  /** activation-token.ts activationTokenKey */
  tokenKey: Buffer;
  /** the email's outbox entry for the link (workflows/platform-user/contract.ts platformInvitationStart) */
  emailStart(input: { userId: string; linkId: string }): OutboxStart;
}

/** The sign-in link of a reactivation: one per user and deactivation. */
export const reactivationLinkId = (userId: string, deactivation: number) => `reactivation:${userId}:${deactivation}`;

export async function reactivateWithSignInLink(db: Db, input: ReactivationInput): Promise<'active' | 'invited' | null> {
  return db.transaction(async (m) => {
    const status = await reactivatePlatformUser(m, input.userId, input.deactivation, input.at);
    if (status !== 'active') return status; // an invited user signs in with a new invitation
    const user = await findPlatformUserView(m, input.userId);
    const workspaceId = user?.workspaceIds[0];
    if (!workspaceId) return status; // in no workspace: an admin adds them with an invitation
    const linkId = reactivationLinkId(input.userId, input.deactivation);
    await insertActivationToken(m, {
      tokenHash: hashActivationToken(activationTokenOf(input.tokenKey, linkId)),
      userId: input.userId,
      workspaceId,
      expiresAt: daysAfter(input.at, ACTIVATION_LINK_DAYS),
      createdAt: input.at,
    });
    await enqueueWorkflowStart(m, input.emailStart({ userId: input.userId, linkId }));
    return status;
  });
}
