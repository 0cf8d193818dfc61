// platform_workspaces and platform_channels: an organisation's workspaces, their settings,
// plan, deletion state and channels.
import type { PlatformChannelRecord, PlatformChannelType, PlatformPlan, PlatformWorkspaceRecord } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

export const WORKSPACE_COLUMNS = `w.id, w.organization_id AS "organizationId", w.name, w.timezone, w.default_language AS "defaultLanguage",
  w.plan, w.status, w.deletion_requested_at AS "deletionRequestedAt", w.purge_at AS "purgeAt",
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
