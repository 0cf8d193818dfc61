// States of a push account that take time to reach (a trial's end, a refresh token's
// expiry), written through the repositories instead of waited for.
import assert from 'node:assert/strict';
import type { Db } from '../../db/db';
import { expireRefreshTokensOf } from '../../db/repositories/push-refresh-tokens';
import { findPushUserById, setPushTrialEnd } from '../../db/repositories/push-users';

/** The user's company becomes a trial ending `seconds` from now (negative: already ended). */
export async function setTrialEnd(db: Db, userId: string, seconds: number): Promise<void> {
  const companyId = (await findPushUserById(db, userId))?.companyId;
  assert.ok(companyId, `user ${userId} has no company`);
  await setPushTrialEnd(db, companyId, seconds);
}

/** Every refresh token of the user has expired. */
export async function expireRefreshTokens(db: Db, userId: string): Promise<void> {
  await expireRefreshTokensOf(db, userId);
}
