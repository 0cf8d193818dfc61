// platform_users and platform_memberships: an organisation's people, their role and
// state, and the workspaces each works in.
import type { PlatformRole, PlatformUserRecord, PlatformUserStatus } from '../../domain/platform/types';
import type { PlatformUserView } from '../../domain/platform/user-view';
import { sql, type Executor, type SqlExecutor } from '../db';

export const USER_COLUMNS = `u.id, u.organization_id AS "organizationId", u.email, u.name, u.role, u.is_org_admin AS "isOrgAdmin",
  u.status, u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.last_active_at AS "lastActiveAt",
  u.activated_at AS "activatedAt", u.deactivated_at AS "deactivatedAt", u.erased_at AS "erasedAt"`;

export interface NewPlatformUser {
  id: string;
  organizationId: string;
  email: string;
  name: string;
  role: PlatformRole;
  isOrgAdmin: boolean;
  status: PlatformUserStatus;
  createdAt: Date;
}

export async function insertPlatformUser(executor: Executor, u: NewPlatformUser): Promise<PlatformUserRecord> {
  const { rows } = await sql<PlatformUserRecord>(
    executor,
    `INSERT INTO platform_users AS u (id, organization_id, email, name, role, is_org_admin, status, created_at, updated_at, activated_at)
     VALUES ($1, $2, lower($3), $4, $5, $6, $7, $8, $8, CASE WHEN $7 = 'active' THEN $8::timestamptz END) RETURNING ${USER_COLUMNS}`,
    [u.id, u.organizationId, u.email, u.name, u.role, u.isOrgAdmin, u.status, u.createdAt],
  );
  return rows[0];
}

export async function findPlatformUser(executor: SqlExecutor, id: string): Promise<PlatformUserRecord | null> {
  const { rows } = await sql<PlatformUserRecord>(executor, `SELECT ${USER_COLUMNS} FROM platform_users u WHERE u.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function addPlatformMembership(executor: Executor, workspaceId: string, userId: string): Promise<void> {
  await sql(executor, `INSERT INTO platform_memberships (workspace_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [workspaceId, userId]);
}

/** Whether the user works in the workspace (an organisation admin works in every one of the organisation). */
export async function isPlatformMember(executor: SqlExecutor, workspaceId: string, userId: string): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `SELECT 1 FROM platform_users u
      WHERE u.id = $2 AND (u.is_org_admin AND EXISTS (SELECT 1 FROM platform_workspaces w WHERE w.id = $1 AND w.organization_id = u.organization_id)
         OR EXISTS (SELECT 1 FROM platform_memberships m WHERE m.workspace_id = $1 AND m.user_id = $2))`,
    [workspaceId, userId],
  );
  return rows.length > 0;
}

// ---- the users resource (docs/platform.md, "Users") ----

const VIEW_COLUMNS = `${USER_COLUMNS}, u.deactivations,
  coalesce((SELECT array_agg(m.workspace_id ORDER BY m.created_at, m.workspace_id) FROM platform_memberships m WHERE m.user_id = u.id), '{}') AS "workspaceIds"`;

/** A user with their workspaces and deactivation count; `lock` takes the row for the rest of the transaction. */
export async function findPlatformUserView(executor: SqlExecutor, id: string, opts: { lock?: boolean } = {}): Promise<PlatformUserView | null> {
  if (opts.lock) await sql(executor, `SELECT 1 FROM platform_users WHERE id = $1 FOR UPDATE`, [id]);
  const { rows } = await sql<PlatformUserView>(executor, `SELECT ${VIEW_COLUMNS} FROM platform_users u WHERE u.id = $1`, [id]);
  return rows[0] ?? null;
}

/** The organisation's user with this (lower-cased) email, if any. */
export async function findPlatformUserByEmail(executor: SqlExecutor, organizationId: string, email: string): Promise<PlatformUserView | null> {
  const { rows } = await sql<PlatformUserView>(
    executor,
    `SELECT ${VIEW_COLUMNS} FROM platform_users u WHERE u.organization_id = $1 AND u.email = lower($2) FOR UPDATE`,
    [organizationId, email],
  );
  return rows[0] ?? null;
}

/** Which users a caller lists: an organisation's, narrowed to the members of some workspaces. */
export interface UserReach {
  organizationId: string;
  /** null: every user of the organisation */
  workspaceIds: string[] | null;
}

/** A page of users in reach, oldest first, and how many there are. */
export async function listPlatformUsers(executor: SqlExecutor, reach: UserReach, offset: number, limit: number): Promise<{ rows: PlatformUserView[]; total: number }> {
  const params: unknown[] = [reach.organizationId];
  let where = `u.organization_id = $1`;
  if (reach.workspaceIds) {
    params.push(reach.workspaceIds);
    where += ` AND EXISTS (SELECT 1 FROM platform_memberships m WHERE m.user_id = u.id AND m.workspace_id = ANY($2))`;
  }
  const [{ rows }, count] = await Promise.all([
    sql<PlatformUserView>(executor, `SELECT ${VIEW_COLUMNS} FROM platform_users u WHERE ${where} ORDER BY u.created_at, u.id OFFSET ${offset} LIMIT ${limit}`, params),
    sql<{ n: string }>(executor, `SELECT count(*) AS n FROM platform_users u WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count.rows[0].n) };
}

/**
 * Serialises the changes that count an organisation's admins (a demotion, a deactivation):
 * two of them at once can never both pass the last-admin rule.
 */
export async function lockPlatformOrganizationAdmins(executor: Executor, organizationId: string): Promise<void> {
  await sql(executor, `SELECT 1 FROM platform_organizations WHERE id = $1 FOR UPDATE`, [organizationId]);
}

/** Active admins (organisation admins included) of the organisation other than `exceptUserId`. */
export async function countOtherActiveAdmins(executor: SqlExecutor, organizationId: string, exceptUserId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>(
    executor,
    `SELECT count(*) AS n FROM platform_users WHERE organization_id = $1 AND id <> $2 AND status = 'active' AND (role = 'admin' OR is_org_admin)`,
    [organizationId, exceptUserId],
  );
  return Number(rows[0].n);
}

/** An invited user's name and role as the newest invitation gives them. */
export async function updateInvitedPlatformUser(executor: Executor, id: string, change: { name: string; role: PlatformRole; at: Date }): Promise<void> {
  await sql(executor, `UPDATE platform_users SET name = $2, role = $3, updated_at = $4 WHERE id = $1 AND status = 'invited'`, [id, change.name, change.role, change.at]);
}

/** A role and/or a name; a role below admin also ends organisation admin rights. */
export async function updatePlatformUser(executor: Executor, id: string, change: { name?: string; role?: PlatformRole; at: Date }): Promise<void> {
  await sql(
    executor,
    `UPDATE platform_users SET name = coalesce($2, name), role = coalesce($3, role),
            is_org_admin = CASE WHEN coalesce($3, role) = 'admin' THEN is_org_admin ELSE false END, updated_at = $4
      WHERE id = $1`,
    [id, change.name ?? null, change.role ?? null, change.at],
  );
}

/** invited → active (single-use activation), at `at`. False when the user is not invited any more. */
export async function activatePlatformUser(executor: Executor, id: string, at: Date): Promise<boolean> {
  const { rows } = await sql(executor, `UPDATE platform_users SET status = 'active', activated_at = $2, updated_at = $2 WHERE id = $1 AND status = 'invited' RETURNING id`, [id, at]);
  return rows.length > 0;
}

/** active or invited → deactivated at `at`, one more deactivation; answers the new count (null: not deactivatable). */
export async function deactivatePlatformUser(executor: Executor, id: string, at: Date): Promise<number | null> {
  const { rows } = await sql<{ deactivations: number }>(
    executor,
    `UPDATE platform_users SET status = 'deactivated', deactivated_at = $2, deactivations = deactivations + 1, updated_at = $2
      WHERE id = $1 AND status IN ('active', 'invited') RETURNING deactivations`,
    [id, at],
  );
  return rows[0]?.deactivations ?? null;
}

/**
 * deactivated → active again (the deactivation's workflow, on a reactivate Update), only
 * while it is still the deactivation `deactivations`; a user deactivated before they ever
 * activated is `invited` again (a new invitation sends them a fresh link). Null when the
 * user is not in that deactivation.
 */
export async function reactivatePlatformUser(executor: SqlExecutor, id: string, deactivations: number, at: Date): Promise<'active' | 'invited' | null> {
  // a retry of a reactivation that committed (same deactivation, same instant) answers as the first
  const { rows } = await sql<{ status: 'active' | 'invited' }>(
    executor,
    `UPDATE platform_users SET status = CASE WHEN activated_at IS NULL THEN 'invited' ELSE 'active' END, deactivated_at = NULL, updated_at = $3
      WHERE id = $1 AND deactivations = $2
        AND (status = 'deactivated' OR (status IN ('active', 'invited') AND deactivated_at IS NULL AND updated_at = $3))
      RETURNING status`,
    [id, deactivations, at],
  );
  return rows[0]?.status ?? null;
}

/** The end of the reactivation window: the personal data (email, name) erased, status erased. */
export async function erasePlatformUser(executor: SqlExecutor, id: string, deactivations: number, at: Date): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `UPDATE platform_users SET status = 'erased', email = NULL, name = NULL, erased_at = $3, updated_at = $3
      WHERE id = $1 AND status = 'deactivated' AND deactivations = $2 RETURNING id`,
    [id, deactivations, at],
  );
  return rows.length > 0;
}

/**
 * A page of the user's open tickets (open or pending, not deleted), what a deactivation
 * unassigns, in id order after `afterId` (null: from the start).
 */
export async function listOpenTicketIdsAssignedTo(executor: SqlExecutor, userId: string, afterId: string | null = null, limit = 500): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    executor,
    `SELECT id FROM platform_tickets
      WHERE assignee_id = $1 AND status IN ('open', 'pending') AND deleted_at IS NULL AND ($2::text IS NULL OR id > $2)
      ORDER BY id LIMIT $3`,
    [userId, afterId, limit],
  );
  return rows.map((r) => r.id);
}

/** How many open tickets the user has (what DELETE /users/{id} answers as `unassigned_tickets`). */
export async function countOpenTicketsAssignedTo(executor: SqlExecutor, userId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(
    executor,
    `SELECT count(*)::int AS n FROM platform_tickets WHERE assignee_id = $1 AND status IN ('open', 'pending') AND deleted_at IS NULL`,
    [userId],
  );
  return rows[0].n;
}

// ---- activation links (platform_activation_tokens: only a SHA-256 of each) ----

export interface ActivationTokenRow {
  tokenHash: string;
  userId: string;
  workspaceId: string | null;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Voids the user's open links (a newer invitation, a deactivation): they count as used. */
export async function voidActivationTokens(executor: Executor, userId: string, at: Date): Promise<void> {
  await sql(executor, `UPDATE platform_activation_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, [userId, at]);
}

export async function insertActivationToken(executor: Executor, t: { tokenHash: string; userId: string; workspaceId: string; expiresAt: Date; createdAt: Date }): Promise<void> {
  await sql(
    executor,
    `INSERT INTO platform_activation_tokens (token_hash, user_id, workspace_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (token_hash) DO NOTHING`,
    [t.tokenHash, t.userId, t.workspaceId, t.expiresAt, t.createdAt],
  );
}

/** A link by its hash; `lock` takes it for the rest of the transaction. */
export async function findActivationToken(executor: SqlExecutor, tokenHash: string, opts: { lock?: boolean } = {}): Promise<ActivationTokenRow | null> {
  const { rows } = await sql<ActivationTokenRow>(
    executor,
    `SELECT token_hash AS "tokenHash", user_id AS "userId", workspace_id AS "workspaceId", expires_at AS "expiresAt", used_at AS "usedAt"
       FROM platform_activation_tokens WHERE token_hash = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** Spends a link (single use): false when it was spent already. */
export async function spendActivationToken(executor: Executor, tokenHash: string, at: Date): Promise<boolean> {
  const { rows } = await sql(executor, `UPDATE platform_activation_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING token_hash`, [tokenHash, at]);
  return rows.length > 0;
}
