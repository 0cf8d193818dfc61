import type { Db } from '../../db/db';
import { findPushUserByEmail } from '../../db/repositories/push-users';
import { verifyPassword } from './passwords';
import { issueRefreshToken } from './refresh-tokens';
import type { PushSession } from './types';

/**
 * A new session for the email and password; null when they do not match (the caller
 * answers its "invalid credentials"). One path for an unknown email and a wrong
 * password: both verify a hash, so neither answers faster.
 */
export async function logInPushUser(db: Db, email: string, password: string): Promise<PushSession | null> {
  const user = await findPushUserByEmail(db, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) return null;
  return { user, refreshToken: await issueRefreshToken(db, user.id) };
}
