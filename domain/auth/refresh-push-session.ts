import type { Db } from '../../db/db';
import { lockRefreshToken, markRefreshTokenUsed, revokeRefreshFamily } from '../../db/repositories/push-refresh-tokens';
import { findPushUserById } from '../../db/repositories/push-users';
import type { Logger } from '../../lib/logger';
import { hashRefreshToken, issueRefreshToken } from './refresh-tokens';
import type { PushSession } from './types';

/**
 * Rotates a refresh token: consumes it and stores the next one of its family. Null for an
 * unknown, expired or revoked token (the caller answers one "invalid" for all); a token
 * used before revokes its whole family, committed, before the null.
 */
export async function refreshPushSession(db: Db, logger: Logger, refreshToken: string): Promise<PushSession | null> {
  return db.transaction(async (m) => {
    const row = await lockRefreshToken(m, hashRefreshToken(refreshToken));
    if (!row || row.revokedAt || new Date(row.expiresAt).getTime() <= Date.now()) return null;
    if (row.usedAt) {
      await revokeRefreshFamily(m, row.familyId);
      logger.warn({ userId: row.userId, familyId: row.familyId }, 'push refresh token reused: family revoked');
      return null;
    }
    await markRefreshTokenUsed(m, row.id);
    const user = await findPushUserById(m, row.userId);
    if (!user) return null;
    return { user, refreshToken: await issueRefreshToken(m, row.userId, row.familyId) };
  });
}
