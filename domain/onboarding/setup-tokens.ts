// Setup tokens (docs/trial-onboarding.md, "Setup tokens"): made by the trial's workflow,
// used by the owner on the set-password page. Expiry on the request path reads the
// caller's clock (`now`); the workflow's 7-day timer marks them expired as well.
import type { Db } from '../../db/db';
import { findSetupTokenByHash, insertSetupToken, markSetupTokenExpired, spendSetupToken } from '../../db/repositories/push-setup-tokens';
import { findTrialRequest, insertAuditEvent, recordSetupLinkGenerated } from '../../db/repositories/push-trial-requests';
import { findPushUserById, setPushUserPassword } from '../../db/repositories/push-users';
import { hashSetupToken, setupTokenOf } from '../../lib/setup-tokens';
import { hashPassword } from '../auth/passwords';
import { issueRefreshToken } from '../auth/refresh-tokens';
import type { PushSession } from '../auth/types';
import { invalidSetupToken, passwordAlreadySet, trialRequestNotApproved, trialRequestNotFound } from './errors';
import type { SetupTokenInfo } from './types';

export interface TokenIssue {
  requestId: string;
  tokenId: string;
  purpose: 'email' | 'link';
  createdAt: Date;
  expiresAt: Date;
  actorId: string | null;
}

/**
 * Stores the hash of token `tokenId`, voiding the owner's older open tokens; a link also
 * records its generation time and audit `trial_request.setup_link_generated`. A repeat
 * of the same id changes nothing. Refuses when the owner has set a password already.
 */
export async function issueSetupToken(db: Db, key: Buffer, t: TokenIssue): Promise<{ tokenId: string; expiresAt: Date }> {
  return db.transaction(async (m) => {
    const r = await findTrialRequest(m, t.requestId, { lock: true });
    if (!r) throw trialRequestNotFound(t.requestId);
    if (r.status !== 'Approved' || !r.ownerId) throw trialRequestNotApproved(r.id, `is ${r.status}`);
    const tokenHash = hashSetupToken(setupTokenOf(key, t.tokenId));
    if ((await findPushUserById(m, r.ownerId))?.passwordHash) {
      throw passwordAlreadySet();
    }
    const stored = await insertSetupToken(m, { id: t.tokenId, trialRequestId: r.id, userId: r.ownerId, tokenHash, purpose: t.purpose, createdAt: t.createdAt, expiresAt: t.expiresAt });
    if (stored && t.purpose === 'link') {
      await recordSetupLinkGenerated(m, r.id, t.createdAt);
      await insertAuditEvent(m, { type: 'trial_request.setup_link_generated', trialRequestId: r.id, companyId: r.companyId, actorId: t.actorId, details: { tokenId: t.tokenId } });
    }
    return { tokenId: t.tokenId, expiresAt: t.expiresAt };
  });
}

/**
 * Who a token is for, if it is valid at `now`. An unknown, spent, voided or expired token
 * takes the same path (hash, look up, check) and gets the same answer: every field null.
 */
export async function setupTokenInfo(db: Db, token: string, now: Date): Promise<SetupTokenInfo> {
  const row = await findSetupTokenByHash(db, hashSetupToken(token));
  if (!row || !row.open || row.expiresAt.getTime() <= now.getTime()) {
    return { email: null, fullName: null, companyName: null, expiresAt: null, isValid: false };
  }
  return { email: row.email, fullName: row.fullName, companyName: row.companyName, expiresAt: row.expiresAt, isValid: true };
}

/**
 * Sets the owner's password with a valid token and spends it (single use), with audit
 * `trial_request.password_set`, in one transaction; then the first session. Refuses an
 * invalid token with setup_token_invalid.
 */
export async function setPasswordWithToken(db: Db, token: string, password: string, now: Date): Promise<PushSession> {
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (m) => {
    const row = await findSetupTokenByHash(m, hashSetupToken(token), { lock: true });
    if (!row || !row.open || row.expiresAt.getTime() <= now.getTime() || !(await spendSetupToken(m, row.id))) throw invalidSetupToken();
    await setPushUserPassword(m, row.userId, passwordHash);
    await insertAuditEvent(m, { type: 'trial_request.password_set', trialRequestId: row.trialRequestId, actorId: row.userId, details: {} });
    return row.userId;
  });
  const user = (await findPushUserById(db, userId))!;
  return { user, refreshToken: await issueRefreshToken(db, user.id) };
}

/** The token's 7 days are over: it expired, if still open. */
export async function expireSetupToken(db: Db, tokenId: string): Promise<void> {
  await markSetupTokenExpired(db, tokenId);
}
