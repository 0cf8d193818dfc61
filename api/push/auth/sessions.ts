// Auth results: an access token plus an opaque refresh token of a family. A refresh
// consumes its token and answers the next one of the same family; presenting a consumed
// token again means it was copied, so the whole family is revoked (RFC 6819 §5.2.2.3).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { appSigningKeys } from '../../kit/auth/signing-keys';
import {
  insertRefreshToken,
  lockRefreshToken,
  markRefreshTokenUsed,
  revokeRefreshFamily,
} from '../../../db/repositories/push-refresh-tokens';
import { findPushUserById, type PushUserRow } from '../../../db/repositories/push-users';
import type { Executor } from '../../../db/db';
import { issueAccessToken } from './tokens';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
const REFRESH_PREFIX = 'prt_';

export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface AuthResultBody {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  user: { id: string; email: string; name: string; createdAt: string };
}

export const presentUser = (u: PushUserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  createdAt: new Date(u.createdAt).toISOString(),
});

async function newRefreshToken(executor: Executor, userId: string, familyId: string): Promise<string> {
  const token = REFRESH_PREFIX + randomBytes(32).toString('base64url');
  await insertRefreshToken(executor, {
    id: randomUUID(),
    userId,
    familyId,
    tokenHash: hashRefreshToken(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return token;
}

async function authResult(deps: AppDeps, user: PushUserRow, refreshToken: string): Promise<AuthResultBody> {
  if (!user.companyId) throw errors.unauthorized('This account has no company');
  const { accessToken, expiresAt } = await issueAccessToken(appSigningKeys(deps), {
    userId: user.id,
    companyId: user.companyId,
    isSuperAdmin: user.isSuperAdmin,
  });
  return { accessToken, refreshToken, expiresAt: expiresAt.toISOString(), user: presentUser(user) };
}

/** A new session (register, login): a new refresh family. */
export async function startSession(deps: AppDeps, user: PushUserRow): Promise<AuthResultBody> {
  return authResult(deps, user, await newRefreshToken(deps.db, user.id, randomUUID()));
}

/**
 * Rotates a refresh token. Unknown, expired and revoked tokens are the same 401; a
 * token used before revokes its family (committed) before the 401.
 */
export async function refreshSession(deps: AppDeps, refreshToken: string): Promise<AuthResultBody> {
  const outcome = await deps.db.transaction(async (m) => {
    const row = await lockRefreshToken(m, hashRefreshToken(refreshToken));
    if (!row || row.revokedAt || new Date(row.expiresAt).getTime() <= Date.now()) return null;
    if (row.usedAt) {
      await revokeRefreshFamily(m, row.familyId);
      deps.logger.warn({ userId: row.userId, familyId: row.familyId }, 'push refresh token reused: family revoked');
      return null;
    }
    await markRefreshTokenUsed(m, row.id);
    const user = await findPushUserById(m, row.userId);
    if (!user) return null;
    return { user, next: await newRefreshToken(m, row.userId, row.familyId) };
  });
  if (!outcome) throw errors.unauthorized('Invalid refresh token');
  return authResult(deps, outcome.user, outcome.next);
}
