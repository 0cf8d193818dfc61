// push_refresh_tokens: opaque refresh tokens stored as SHA-256, in families. Each use
// rotates (marks the row used, inserts the next of the family); a used token presented
// again revokes the whole family.
import { PushRefreshToken } from '../entities';
import type { RefreshTokenRow } from '../../domain/auth/types';
import { managerOf, sql, type Executor } from '../db';

export async function insertRefreshToken(
  executor: Executor,
  t: { id: string; userId: string; familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await managerOf(executor).insert(PushRefreshToken, t);
}

/** The row for a hash, locked for the rest of the transaction (two refreshes of one token serialise). */
export async function lockRefreshToken(executor: Executor, tokenHash: string): Promise<RefreshTokenRow | null> {
  const { rows } = await sql<RefreshTokenRow>(
    executor,
    `SELECT id, user_id AS "userId", family_id AS "familyId", expires_at AS "expiresAt", used_at AS "usedAt",
            revoked_at AS "revokedAt"
       FROM push_refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function markRefreshTokenUsed(executor: Executor, id: string): Promise<void> {
  await sql(executor, `UPDATE push_refresh_tokens SET used_at = now() WHERE id = $1`, [id]);
}

/** Every still-live token of the family is revoked (a stolen token was replayed). */
export async function revokeRefreshFamily(executor: Executor, familyId: string): Promise<number> {
  const { rowCount } = await sql(
    executor,
    `UPDATE push_refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`,
    [familyId],
  );
  return rowCount ?? 0;
}

/** Every refresh token of the user expires now (by the database clock, a second ago). */
export async function expireRefreshTokensOf(executor: Executor, userId: string): Promise<void> {
  await sql(executor, `UPDATE push_refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
}
