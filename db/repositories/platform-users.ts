// platform_users and platform_memberships: an organisation's people, their role and
// state, and the workspaces each works in.
import type { PlatformRole, PlatformUserRecord, PlatformUserStatus } from '../../domain/platform/types';
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
