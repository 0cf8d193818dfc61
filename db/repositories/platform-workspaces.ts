// platform_workspaces and platform_channels: an organisation's workspaces, their settings,
// plan, deletion state and channels.
import type { PlatformChannelRecord, PlatformChannelType, PlatformPlan, PlatformSlaPolicy, PlatformWorkspaceRecord } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

export const WORKSPACE_COLUMNS = `w.id, w.organization_id AS "organizationId", w.name, w.timezone, w.default_language AS "defaultLanguage",
  w.plan, w.sla_policies AS "slaPolicies", w.status, w.deletion_requested_at AS "deletionRequestedAt", w.purge_at AS "purgeAt",
  w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;

export interface NewPlatformWorkspace {
  id: string;
  organizationId: string;
  name: string;
  timezone: string;
  defaultLanguage: string;
  plan: PlatformPlan;
  createdAt: Date;
}

export async function insertPlatformWorkspace(executor: Executor, w: NewPlatformWorkspace): Promise<PlatformWorkspaceRecord> {
  const { rows } = await sql<PlatformWorkspaceRecord>(
    executor,
    `INSERT INTO platform_workspaces AS w (id, organization_id, name, timezone, default_language, plan, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${WORKSPACE_COLUMNS}`,
    [w.id, w.organizationId, w.name, w.timezone, w.defaultLanguage, JSON.stringify(w.plan), w.createdAt],
  );
  return rows[0];
}

export async function findPlatformWorkspace(executor: SqlExecutor, id: string): Promise<PlatformWorkspaceRecord | null> {
  const { rows } = await sql<PlatformWorkspaceRecord>(executor, `SELECT ${WORKSPACE_COLUMNS} FROM platform_workspaces w WHERE w.id = $1`, [id]);
  return rows[0] ?? null;
}

const CHANNEL_COLUMNS = `id, workspace_id AS "workspaceId", type, name, created_at AS "createdAt"`;

export async function insertPlatformChannels(
  executor: Executor,
  channels: { id: string; workspaceId: string; type: PlatformChannelType; name: string; createdAt: Date }[],
): Promise<PlatformChannelRecord[]> {
  const out: PlatformChannelRecord[] = [];
  for (const c of channels) {
    const { rows } = await sql<PlatformChannelRecord>(
      executor,
      `INSERT INTO platform_channels (id, workspace_id, type, name, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${CHANNEL_COLUMNS}`,
      [c.id, c.workspaceId, c.type, c.name, c.createdAt],
    );
    out.push(rows[0]);
  }
  return out;
}

export async function listPlatformChannels(executor: SqlExecutor, workspaceId: string): Promise<PlatformChannelRecord[]> {
  const { rows } = await sql<PlatformChannelRecord>(executor, `SELECT ${CHANNEL_COLUMNS} FROM platform_channels WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  return rows;
}

export async function findPlatformChannel(executor: SqlExecutor, id: string): Promise<PlatformChannelRecord | null> {
  const { rows } = await sql<PlatformChannelRecord>(executor, `SELECT ${CHANNEL_COLUMNS} FROM platform_channels WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The workspace row locked for the caller's transaction (a deletion, a restore, a purge). */
export async function lockPlatformWorkspace(executor: Executor, id: string): Promise<PlatformWorkspaceRecord | null> {
  const { rows } = await sql<PlatformWorkspaceRecord>(executor, `SELECT ${WORKSPACE_COLUMNS} FROM platform_workspaces w WHERE w.id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

/**
 * A page of an organisation's workspaces, oldest first; `workspaceIds` null: every one of
 * the organisation, else only those (a caller who reaches one workspace).
 */
export async function listPlatformWorkspaces(
  executor: SqlExecutor,
  filter: { organizationId: string; workspaceIds: string[] | null },
  offset: number,
  limit: number,
): Promise<{ rows: PlatformWorkspaceRecord[]; total: number }> {
  const where = `w.organization_id = $1 AND ($2::text[] IS NULL OR w.id = ANY($2::text[]))`;
  const params = [filter.organizationId, filter.workspaceIds];
  const [page, count] = await Promise.all([
    sql<PlatformWorkspaceRecord>(executor, `SELECT ${WORKSPACE_COLUMNS} FROM platform_workspaces w WHERE ${where} ORDER BY w.created_at, w.id OFFSET $3 LIMIT $4`, [...params, offset, limit]),
    sql<{ total: number }>(executor, `SELECT count(*)::int AS total FROM platform_workspaces w WHERE ${where}`, params),
  ]);
  return { rows: page.rows, total: count.rows[0].total };
}

/**
 * The active users who work in the workspace: its members, and the organisation's
 * admins (who work in every workspace of it: isPlatformMember), each counted once.
 */
export async function countPlatformWorkspaceAgents(executor: SqlExecutor, workspaceId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(
    executor,
    `SELECT count(*)::int AS n FROM platform_users u
       JOIN platform_workspaces w ON w.id = $1 AND w.organization_id = u.organization_id
      WHERE u.status = 'active'
        AND (u.is_org_admin OR EXISTS (SELECT 1 FROM platform_memberships m WHERE m.workspace_id = w.id AND m.user_id = u.id))`,
    [workspaceId],
  );
  return rows[0].n;
}

export interface PlatformWorkspaceChanges {
  name?: string;
  timezone?: string;
  defaultLanguage?: string;
}

/** Sets the given settings (the others stay) and updated_at; the row after it. */
export async function updatePlatformWorkspaceSettings(
  executor: Executor,
  id: string,
  changes: PlatformWorkspaceChanges,
  now: Date,
): Promise<PlatformWorkspaceRecord | null> {
  const { rows } = await sql<PlatformWorkspaceRecord>(
    executor,
    `UPDATE platform_workspaces w SET name = COALESCE($2, w.name), timezone = COALESCE($3, w.timezone),
            default_language = COALESCE($4, w.default_language), updated_at = $5
      WHERE w.id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
    [id, changes.name ?? null, changes.timezone ?? null, changes.defaultLanguage ?? null, now],
  );
  return rows[0] ?? null;
}

/** Stores the workspace's SLA policies (null: back to the defaults) and updated_at; the row after it. */
export async function setPlatformWorkspaceSlaPolicies(
  executor: Executor,
  id: string,
  policies: PlatformSlaPolicy[] | null,
  now: Date,
): Promise<PlatformWorkspaceRecord | null> {
  const { rows } = await sql<PlatformWorkspaceRecord>(
    executor,
    `UPDATE platform_workspaces w SET sla_policies = $2::jsonb, updated_at = $3 WHERE w.id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
    [id, policies === null ? null : JSON.stringify(policies), now],
  );
  return rows[0] ?? null;
}

/** Marks the workspace pending deletion from `requestedAt` until `purgeAt`; the row after it. */
export async function markPlatformWorkspacePendingDeletion(executor: Executor, id: string, requestedAt: Date, purgeAt: Date): Promise<PlatformWorkspaceRecord> {
  const { rows } = await sql<PlatformWorkspaceRecord>(
    executor,
    `UPDATE platform_workspaces w SET status = 'pending_deletion', deletion_requested_at = $2, purge_at = $3, updated_at = $2
      WHERE w.id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
    [id, requestedAt, purgeAt],
  );
  return rows[0];
}

/** Sets the workspace active again and clears its deletion; the row after it. */
export async function clearPlatformWorkspaceDeletion(executor: Executor, id: string, now: Date): Promise<PlatformWorkspaceRecord> {
  const { rows } = await sql<PlatformWorkspaceRecord>(
    executor,
    `UPDATE platform_workspaces w SET status = 'active', deletion_requested_at = NULL, purge_at = NULL, updated_at = $2
      WHERE w.id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
    [id, now],
  );
  return rows[0];
}

/**
 * Removes the workspace and everything in it, in the caller's transaction: the pending
 * workflow starts of its tickets and tokens (`outboxIdsOf` names them: the workflow ids
 * are the contracts', not db/'s), the platform events of the workspace, then the row,
 * whose foreign keys cascade to its channels, memberships, tokens, tickets and replies.
 */
export async function deletePlatformWorkspaceWithData(
  executor: Executor,
  id: string,
  outboxIdsOf: { ticket(ticketId: string): string; token(tokenId: string): string },
): Promise<{ tickets: number; tokens: number; events: number }> {
  const tickets = (await sql<{ id: string }>(executor, `SELECT id FROM platform_tickets WHERE workspace_id = $1`, [id])).rows.map((r) => r.id);
  const tokens = (await sql<{ id: string }>(executor, `SELECT id FROM platform_tokens WHERE workspace_id = $1`, [id])).rows.map((r) => r.id);
  const starts = [...tickets.map(outboxIdsOf.ticket), ...tokens.map(outboxIdsOf.token)];
  if (starts.length) await sql(executor, `DELETE FROM workflow_starts WHERE workflow_id = ANY($1::text[])`, [starts]);
  const events = await sql(executor, `DELETE FROM events WHERE api = 'platform' AND workspace_id = $1`, [id]);
  await sql(executor, `DELETE FROM platform_workspaces WHERE id = $1`, [id]);
  return { tickets: tickets.length, tokens: tokens.length, events: events.rowCount ?? 0 };
}

/**
 * The tickets of a workspace whose workflow may still run: every ticket not closed (an
 * open ticket's workflow waits for its next change) and every soft-deleted one (its run
 * keeps the 30-day timer). A closed, undeleted ticket's run has ended.
 */
export async function listRunningPlatformTicketIds(executor: SqlExecutor, workspaceId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    executor,
    `SELECT id FROM platform_tickets WHERE workspace_id = $1 AND (status <> 'closed' OR deleted_at IS NOT NULL)`,
    [workspaceId],
  );
  return rows.map((r) => r.id);
}
