// platform_automations: a workspace's automation rules for the tickets of one environment
// (docs/platform.md, "Automations"), read in creation order (created_at, id).
import type { AutomationAction, AutomationCondition, AutomationTrigger, PlatformAutomationRecord } from '../../domain/platform/automation.rules';
import type { PlatformEnvironment } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

const COLUMNS = `a.id, a.organization_id AS "organizationId", a.workspace_id AS "workspaceId", a.environment, a.name, a.trigger,
  a.conditions, a.actions, a.active, a.created_by AS "createdBy", a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

/** A rule as stored, before it has its times: the record's fields, its creator and the time of the create. */
export type NewPlatformAutomation = Omit<PlatformAutomationRecord, 'createdBy' | 'createdAt' | 'updatedAt'> & { createdBy: string; now: Date };

export async function insertPlatformAutomation(executor: Executor, a: NewPlatformAutomation): Promise<PlatformAutomationRecord> {
  const { rows } = await sql<PlatformAutomationRecord>(
    executor,
    `INSERT INTO platform_automations AS a (id, organization_id, workspace_id, environment, name, trigger, conditions, actions, active, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $11) RETURNING ${COLUMNS}`,
    [a.id, a.organizationId, a.workspaceId, a.environment, a.name, a.trigger, JSON.stringify(a.conditions), JSON.stringify(a.actions), a.active, a.createdBy, a.now],
  );
  return rows[0];
}

export async function findPlatformAutomation(executor: SqlExecutor, id: string): Promise<PlatformAutomationRecord | null> {
  const { rows } = await sql<PlatformAutomationRecord>(executor, `SELECT ${COLUMNS} FROM platform_automations a WHERE a.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function lockPlatformAutomation(executor: Executor, id: string): Promise<PlatformAutomationRecord | null> {
  const { rows } = await sql<PlatformAutomationRecord>(executor, `SELECT ${COLUMNS} FROM platform_automations a WHERE a.id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

/** How many rules a workspace has in an environment (the per-workspace limit). */
export async function countPlatformAutomations(executor: Executor, workspaceId: string, environment: PlatformEnvironment): Promise<number> {
  const { rows } = await sql<{ n: number }>(executor, `SELECT count(*)::int AS n FROM platform_automations WHERE workspace_id = $1 AND environment = $2`, [workspaceId, environment]);
  return rows[0].n;
}

export interface PlatformAutomationFilter {
  organizationId: string;
  environment: PlatformEnvironment;
  /** the workspaces the caller reaches; null: every one of the organisation */
  workspaceIds: string[] | null;
  /** narrows to one workspace (one outside the reach lists nothing) */
  workspaceId?: string;
  trigger?: AutomationTrigger;
  active?: boolean;
}

export async function listPlatformAutomations(
  executor: SqlExecutor,
  f: PlatformAutomationFilter,
  offset: number,
  limit: number,
): Promise<{ rows: PlatformAutomationRecord[]; total: number }> {
  const where = ['a.organization_id = $1', 'a.environment = $2'];
  const params: unknown[] = [f.organizationId, f.environment];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (f.workspaceIds) add('a.workspace_id = ANY(?::text[])', f.workspaceIds);
  if (f.workspaceId !== undefined) add('a.workspace_id = ?', f.workspaceId);
  if (f.trigger !== undefined) add('a.trigger = ?', f.trigger);
  if (f.active !== undefined) add('a.active = ?', f.active);
  const whereSql = where.join(' AND ');
  const [page, count] = await Promise.all([
    sql<PlatformAutomationRecord>(executor, `SELECT ${COLUMNS} FROM platform_automations a WHERE ${whereSql} ORDER BY a.created_at, a.id OFFSET ${offset} LIMIT ${limit}`, params),
    sql<{ n: number }>(executor, `SELECT count(*)::int AS n FROM platform_automations a WHERE ${whereSql}`, params),
  ]);
  return { rows: page.rows, total: count.rows[0].n };
}

/** The active rules of a trigger for a workspace's tickets of one environment, in the order they run. */
export async function listActivePlatformAutomations(
  executor: SqlExecutor,
  workspaceId: string,
  environment: PlatformEnvironment,
  trigger: AutomationTrigger,
): Promise<PlatformAutomationRecord[]> {
  const { rows } = await sql<PlatformAutomationRecord>(
    executor,
    `SELECT ${COLUMNS} FROM platform_automations a
      WHERE a.workspace_id = $1 AND a.environment = $2 AND a.trigger = $3 AND a.active
      ORDER BY a.created_at, a.id`,
    [workspaceId, environment, trigger],
  );
  return rows;
}

export interface PlatformAutomationSets {
  name?: string;
  trigger?: AutomationTrigger;
  conditions?: AutomationCondition[];
  actions?: AutomationAction[];
  active?: boolean;
}

export async function updatePlatformAutomation(executor: Executor, id: string, sets: PlatformAutomationSets, now: Date): Promise<PlatformAutomationRecord> {
  const assignments = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    assignments.push(`${column} = $${params.length}${cast}`);
  };
  if (sets.name !== undefined) set('name', sets.name);
  if (sets.trigger !== undefined) set('trigger', sets.trigger);
  if (sets.conditions !== undefined) set('conditions', JSON.stringify(sets.conditions), '::jsonb');
  if (sets.actions !== undefined) set('actions', JSON.stringify(sets.actions), '::jsonb');
  if (sets.active !== undefined) set('active', sets.active);
  const { rows } = await sql<PlatformAutomationRecord>(executor, `UPDATE platform_automations a SET ${assignments.join(', ')} WHERE a.id = $1 RETURNING ${COLUMNS}`, params);
  return rows[0];
}

export async function deletePlatformAutomation(executor: Executor, id: string): Promise<boolean> {
  const { rowCount } = await sql(executor, `DELETE FROM platform_automations WHERE id = $1`, [id]);
  return (rowCount ?? 0) > 0;
}

/** Which of `ids` are channels of the workspace (a rule's channel conditions, in one query). */
export async function workspaceChannelIds(executor: SqlExecutor, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await sql<{ id: string }>(executor, `SELECT id FROM platform_channels WHERE workspace_id = $1 AND id = ANY($2::text[])`, [workspaceId, ids]);
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are users of the organisation, in any state (a rule's assignee conditions, in one query). */
export async function organizationUserIds(executor: SqlExecutor, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await sql<{ id: string }>(executor, `SELECT id FROM platform_users WHERE organization_id = $1 AND id = ANY($2::text[])`, [organizationId, ids]);
  return new Set(rows.map((r) => r.id));
}

/** Whether an event with this dedupe key was recorded (a rule's step, checked on a retry). */
export async function automationEventStored(executor: Executor, dedupeKey: string): Promise<boolean> {
  const { rows } = await sql(executor, `SELECT 1 FROM events WHERE dedupe_key = $1`, [dedupeKey]);
  return rows.length > 0;
}
