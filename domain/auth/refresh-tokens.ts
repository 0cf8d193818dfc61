// Refresh tokens of the push API: opaque random strings of a family, stored as SHA-256.
// A refresh consumes its token and stores the next one of the same family; presenting a
// consumed token again means it was copied, so the whole family is revoked
// (RFC 6819 §5.2.2.3).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { insertRefreshToken } from '../../db/repositories/push-refresh-tokens';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
const REFRESH_PREFIX = 'prt_';

export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores a new refresh token of `familyId` (a new session: a new family) and returns it. */
export async function issueRefreshToken(executor: Executor, userId: string, familyId: string = randomUUID()): Promise<string> {
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
