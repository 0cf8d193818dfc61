// platform_tokens: the platform API's bearer tokens (`service_live_…`, `service_test_…`),
// only a SHA-256 of each secret; their creator, workspace, expiry and revocation.
import type { PlatformEnvironment, PlatformTokenPrincipalRow, PlatformTokenRecord } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

export const TOKEN_COLUMNS = `t.id, t.organization_id AS "organizationId", t.workspace_id AS "workspaceId", t.user_id AS "userId",
  t.name, t.environment, t.prefix, t.expires_at AS "expiresAt", t.expired_at AS "expiredAt", t.revoked_at AS "revokedAt",
  t.last_used_at AS "lastUsedAt", t.created_at AS "createdAt"`;

export interface NewPlatformToken {
  id: string;
  organizationId: string;
  workspaceId: string;
  userId: string;
  name: string;
  environment: PlatformEnvironment;
  prefix: string;
  hash: string;
  expiresAt: Date | null;
  createdAt: Date;
}

export async function insertPlatformToken(executor: Executor, t: NewPlatformToken): Promise<PlatformTokenRecord> {
  const { rows } = await sql<PlatformTokenRecord>(
    executor,
    `INSERT INTO platform_tokens AS t (id, organization_id, workspace_id, user_id, name, environment, prefix, secret_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${TOKEN_COLUMNS}`,
    [t.id, t.organizationId, t.workspaceId, t.userId, t.name, t.environment, t.prefix, t.hash, t.expiresAt, t.createdAt],
  );
  return rows[0];
}

/**
 * What authenticating a token needs, in one round trip: the token, its creator's role and
 * status now, its workspace's state and its organisation's limits. Null for an unknown
 * hash or a revoked token (an expired one is returned: the caller compares its expiry
 * with the clock, at the exact instant).
 */
const PRINCIPAL_SELECT = `SELECT t.id, t.organization_id AS "organizationId", t.workspace_id AS "workspaceId", t.user_id AS "userId",
            t.name, t.environment, t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt",
            u.role, u.is_org_admin AS "isOrgAdmin", u.status AS "userStatus", w.status AS "workspaceStatus",
            o.read_limit AS "readLimit", o.write_limit AS "writeLimit"
       FROM platform_tokens t
       JOIN platform_users u ON u.id = t.user_id
       JOIN platform_workspaces w ON w.id = t.workspace_id
       JOIN platform_organizations o ON o.id = t.organization_id`;

export async function findPlatformTokenPrincipal(executor: SqlExecutor, hash: string): Promise<PlatformTokenPrincipalRow | null> {
  const { rows } = await sql<PlatformTokenPrincipalRow>(executor, `${PRINCIPAL_SELECT} WHERE t.secret_hash = $1 AND t.revoked_at IS NULL`, [hash]);
  return rows[0] ?? null;
}

/** The same by the token's id: a settings session keeps the id, never the secret (docs/settings.md, "Sessions"). */
export async function findPlatformTokenPrincipalById(executor: SqlExecutor, tokenId: string): Promise<PlatformTokenPrincipalRow | null> {
  const { rows } = await sql<PlatformTokenPrincipalRow>(executor, `${PRINCIPAL_SELECT} WHERE t.id = $1 AND t.revoked_at IS NULL`, [tokenId]);
  return rows[0] ?? null;
}

/** Records a use (the token's last_used_at and its user's last_active_at), at most once a minute. */
export async function touchPlatformToken(executor: SqlExecutor, tokenId: string): Promise<void> {
  await sql(
    executor,
    `WITH t AS (
       UPDATE platform_tokens SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
        RETURNING user_id)
     UPDATE platform_users u SET last_active_at = now() FROM t
      WHERE u.id = t.user_id AND (u.last_active_at IS NULL OR u.last_active_at < now() - interval '1 minute')`,
    [tokenId],
  );
}

/**
 * Which tokens a caller lists: an organisation's, within it every token of some workspaces
 * (null: of every workspace) and the caller's own wherever they are, optionally narrowed to
 * one workspace.
 */
export interface TokenReach {
  organizationId: string;
  /** every token of these workspaces; null: of the whole organisation; []: none but the owner's */
  workspaceIds: string[] | null;
  /** the caller: their own tokens are always in reach */
  ownerId: string;
  /** the `workspace_id` filter */
  workspaceId?: string | null;
}

function reachWhere(reach: TokenReach, params: unknown[]): string {
  params.push(reach.organizationId);
  let where = `t.organization_id = $${params.length}`;
  if (reach.workspaceIds) {
    params.push(reach.workspaceIds, reach.ownerId);
    where += ` AND (t.workspace_id = ANY($${params.length - 1}) OR t.user_id = $${params.length})`;
  }
  if (reach.workspaceId) {
    params.push(reach.workspaceId);
    where += ` AND t.workspace_id = $${params.length}`;
  }
  return where;
}

/** A page of tokens in reach, oldest first, and how many there are. */
export async function listPlatformTokens(executor: SqlExecutor, reach: TokenReach, offset: number, limit: number): Promise<{ rows: PlatformTokenRecord[]; total: number }> {
  const params: unknown[] = [];
  const where = reachWhere(reach, params);
  const [{ rows }, count] = await Promise.all([
    sql<PlatformTokenRecord>(executor, `SELECT ${TOKEN_COLUMNS} FROM platform_tokens t WHERE ${where} ORDER BY t.created_at, t.id OFFSET ${offset} LIMIT ${limit}`, params),
    sql<{ n: string }>(executor, `SELECT count(*) AS n FROM platform_tokens t WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count.rows[0].n) };
}

export async function findPlatformToken(executor: SqlExecutor, id: string): Promise<PlatformTokenRecord | null> {
  const { rows } = await sql<PlatformTokenRecord>(executor, `SELECT ${TOKEN_COLUMNS} FROM platform_tokens t WHERE t.id = $1`, [id]);
  return rows[0] ?? null;
}

/** The ids of a user's unrevoked tokens (a deactivation revokes them). */
export async function unrevokedPlatformTokenIdsOfUser(executor: SqlExecutor, userId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(executor, `SELECT id FROM platform_tokens WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id`, [userId]);
  return rows.map((r) => r.id);
}

/** Sets revoked_at once; revoking again keeps the first time. */
export async function revokePlatformTokens(executor: SqlExecutor, ids: string[], at: Date): Promise<void> {
  await sql(executor, `UPDATE platform_tokens SET revoked_at = $2 WHERE id = ANY($1) AND revoked_at IS NULL`, [ids, at]);
}

/** Sets expired_at once (the expiry timer); false when the token no longer exists. */
export async function markPlatformTokenExpired(executor: SqlExecutor, id: string, at: Date): Promise<boolean> {
  const { rows } = await sql(executor, `UPDATE platform_tokens SET expired_at = coalesce(expired_at, $2) WHERE id = $1 RETURNING id`, [id, at]);
  return rows.length > 0;
}
