import type { Db } from '../../db/db';
import { findPushUserByEmail } from '../../db/repositories/push-users';
import { verifyPassword } from './passwords';
import { issueRefreshToken } from './refresh-tokens';
import type { PushSession, PushUserRow } from './types';

/**
 * A new session for the email and password; null when they do not match (the caller
 * answers its "invalid credentials"). One path for an unknown email and a wrong
 * password: both verify a hash, so neither answers faster.
 */
export async function logInPushUser(db: Db, email: string, password: string): Promise<PushSession | null> {
  const user = await checkPushPassword(db, email, password);
  if (!user) return null;
  return { user, refreshToken: await issueRefreshToken(db, user.id) };
}

/**
 * The user whose email and password these are, or null, without issuing anything: the
 * check of logInPushUser that the settings pages' sign-in shares (docs/settings.md).
 */
export async function checkPushPassword(db: Db, email: string, password: string): Promise<PushUserRow | null> {
  const user = await findPushUserByEmail(db, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  return user && ok ? user : null;
}
