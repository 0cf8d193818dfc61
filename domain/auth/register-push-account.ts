import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { findPushUserById, insertAccount, isDuplicateEmail } from '../../db/repositories/push-users';
import { emailTaken } from './errors';
import { hashPassword } from './passwords';
import { issueRefreshToken } from './refresh-tokens';
import type { PushSession } from './types';

export interface Registration {
  email: string;
  name: string;
  password: string;
}

/**
 * Self-service registration: a company of one (named after the user), its owner and the
 * membership in one transaction, then the first session's refresh token. Refuses with
 * email_taken (conflict) when an account has the email already.
 */
export async function registerPushAccount(db: Db, r: Registration): Promise<PushSession> {
  const passwordHash = await hashPassword(r.password);
  const userId = randomUUID();
  try {
    await db.transaction((m) =>
      insertAccount(m, { userId, companyId: randomUUID(), email: r.email, name: r.name, passwordHash, companyName: r.name }),
    );
  } catch (err) {
    if (isDuplicateEmail(err)) throw emailTaken();
    throw err;
  }
  const user = (await findPushUserById(db, userId))!;
  return { user, refreshToken: await issueRefreshToken(db, user.id) };
}
