// platform_tickets and platform_ticket_replies: the platform API's tickets (each in one
// workspace and one environment) and their replies. The ticket workflow is the only
// writer of a ticket after its insert (domain/platform/apply-ticket-change.ts); a reply
// is written by the API as a draft (version null, hidden) and published by the workflow.
import type { PlatformEnvironment, PlatformReplyRecord, PlatformTicketPriority, PlatformTicketRecord, PlatformTicketStatus } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

export const PLATFORM_TICKET_COLUMNS = `t.id, t.organization_id AS "organizationId", t.workspace_id AS "workspaceId", t.environment,
  t.channel_id AS "channelId", t.subject, t.body, t.contact_email AS "contactEmail", t.priority, t.status,
  t.assignee_id AS "assigneeId", t.tags, t.created_by AS "createdBy", t.version, t.created_at AS "createdAt",
  t.updated_at AS "updatedAt", t.resolved_at AS "resolvedAt", t.closed_at AS "closedAt", t.deleted_at AS "deletedAt",
  t.purge_at AS "purgeAt"`;

const REPLY_COLUMNS = `r.id, r.ticket_id AS "ticketId", r.author_id AS "authorId", r.body, r.created_at AS "createdAt"`;

/** A new ticket's row: the record's own fields as the create stores them. */
export type NewPlatformTicket = Pick<
  PlatformTicketRecord,
  'id' | 'organizationId' | 'workspaceId' | 'environment' | 'channelId' | 'subject' | 'body' | 'contactEmail' | 'priority' | 'assigneeId' | 'tags' | 'createdAt'
> & { createdBy: string };

/** Inserts a new ticket (open, version 1); an id already stored is left as it is (null). */
export async function insertPlatformTicket(executor: Executor, t: NewPlatformTicket): Promise<PlatformTicketRecord | null> {
  const { rows } = await sql<PlatformTicketRecord>(
    executor,
    `INSERT INTO platform_tickets AS t (id, organization_id, workspace_id, environment, channel_id, subject, body, contact_email,
                                        priority, assignee_id, tags, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
     ON CONFLICT (id) DO NOTHING RETURNING ${PLATFORM_TICKET_COLUMNS}`,
    [t.id, t.organizationId, t.workspaceId, t.environment, t.channelId, t.subject, t.body, t.contactEmail, t.priority, t.assigneeId, t.tags, t.createdBy, t.createdAt],
  );
  return rows[0] ?? null;
}

/** The ticket, soft-deleted or not (callers decide what a deleted one means). */
export async function findPlatformTicket(executor: SqlExecutor, id: string): Promise<PlatformTicketRecord | null> {
  const { rows } = await sql<PlatformTicketRecord>(executor, `SELECT ${PLATFORM_TICKET_COLUMNS} FROM platform_tickets t WHERE t.id = $1`, [id]);
  return rows[0] ?? null;
}

/** The ticket, locked for the caller's transaction; null when it is gone. */
export async function lockPlatformTicket(executor: Executor, id: string): Promise<PlatformTicketRecord | null> {
  const { rows } = await sql<PlatformTicketRecord>(executor, `SELECT ${PLATFORM_TICKET_COLUMNS} FROM platform_tickets t WHERE t.id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

/** The columns a change sets, by their SQL names (a fixed set, never from input). */
export interface PlatformTicketSets {
  status?: PlatformTicketStatus;
  priority?: PlatformTicketPriority;
  assignee_id?: string | null;
  tags?: string[];
  version: number;
  updated_at: string;
  resolved_at?: string | null;
  closed_at?: string | null;
  deleted_at?: string | null;
  purge_at?: string | null;
}

const SETTABLE = new Set(['status', 'priority', 'assignee_id', 'tags', 'version', 'updated_at', 'resolved_at', 'closed_at', 'deleted_at', 'purge_at']);

export async function updatePlatformTicket(executor: Executor, id: string, sets: PlatformTicketSets): Promise<PlatformTicketRecord> {
  const entries = Object.entries(sets).filter(([k, v]) => SETTABLE.has(k) && v !== undefined);
  const assignments = entries.map(([k], i) => `${k} = $${i + 2}`).join(', ');
  const { rows } = await sql<PlatformTicketRecord>(
    executor,
    `UPDATE platform_tickets t SET ${assignments} WHERE t.id = $1 RETURNING ${PLATFORM_TICKET_COLUMNS}`,
    [id, ...entries.map(([, v]) => v)],
  );
  return rows[0];
}

// ── the step log (platform_ticket_steps: which change made which step; docs/platform.md, "Step keys") ──

/**
 * What the step log says of a request (call with the row locked): whether the change `key`
 * made a step, and whether the step `version` was made by a keyed change at all (a step
 * stored before step keys, or by a request without one, has no row).
 */
export async function platformTicketStepLog(executor: Executor, ticketId: string, key: string, version: number): Promise<{ keyStored: boolean; numberLogged: boolean }> {
  const { rows } = await sql<{ keyStored: boolean | null; numberLogged: boolean | null }>(
    executor,
    `SELECT bool_or(step_key = $2) AS "keyStored", bool_or(version = $3) AS "numberLogged"
       FROM platform_ticket_steps WHERE ticket_id = $1 AND (step_key = $2 OR version = $3)`,
    [ticketId, key, version],
  );
  return { keyStored: rows[0]?.keyStored === true, numberLogged: rows[0]?.numberLogged === true };
}

/** Logs the change `key` as the ticket's step `version`, in the step's own transaction. */
export async function logPlatformTicketStep(executor: Executor, ticketId: string, version: number, key: string): Promise<void> {
  await sql(executor, `INSERT INTO platform_ticket_steps (ticket_id, version, step_key) VALUES ($1, $2, $3)`, [ticketId, version, key]);
}

/** Removes a soft-deleted ticket for good (its replies and step log cascade); false when it is gone or no longer deleted. */
export async function purgePlatformTicketRow(executor: SqlExecutor, id: string): Promise<boolean> {
  const { rowCount } = await sql(executor, `DELETE FROM platform_tickets WHERE id = $1 AND deleted_at IS NOT NULL`, [id]);
  return (rowCount ?? 0) > 0;
}

/** What a list shows: one workspace and environment, never soft-deleted tickets, and the filters given. */
export interface PlatformTicketFilter {
  workspaceId: string;
  environment: PlatformEnvironment;
  status?: PlatformTicketStatus;
  priority?: PlatformTicketPriority;
  /** a user id, or null for unassigned tickets */
  assigneeId?: string | null;
  tag?: string;
  channelId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** A page of tickets, newest first, and how many match. */
export async function listPlatformTickets(
  executor: SqlExecutor,
  f: PlatformTicketFilter,
  offset: number,
  limit: number,
): Promise<{ rows: PlatformTicketRecord[]; total: number }> {
  const params: unknown[] = [f.workspaceId, f.environment];
  const where = ['t.workspace_id = $1', 't.environment = $2', 't.deleted_at IS NULL'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.status) add((p) => `t.status = ${p}`, f.status);
  if (f.priority) add((p) => `t.priority = ${p}`, f.priority);
  if (f.assigneeId === null) where.push('t.assignee_id IS NULL');
  else if (f.assigneeId !== undefined) add((p) => `t.assignee_id = ${p}`, f.assigneeId);
  if (f.tag !== undefined) add((p) => `t.tags @> ARRAY[${p}]::text[]`, f.tag);
  if (f.channelId) add((p) => `t.channel_id = ${p}`, f.channelId);
  if (f.createdAfter) add((p) => `t.created_at > ${p}`, f.createdAfter);
  if (f.createdBefore) add((p) => `t.created_at < ${p}`, f.createdBefore);
  const w = where.join(' AND ');
  const [{ rows }, count] = await Promise.all([
    sql<PlatformTicketRecord>(
      executor,
      `SELECT ${PLATFORM_TICKET_COLUMNS} FROM platform_tickets t WHERE ${w} ORDER BY t.created_at DESC, t.id DESC OFFSET ${Number(offset)} LIMIT ${Number(limit)}`,
      params,
    ),
    sql<{ n: string }>(executor, `SELECT count(*) AS n FROM platform_tickets t WHERE ${w}`, params),
  ]);
  return { rows, total: Number(count.rows[0].n) };
}

/** Whether the user is active and works in the workspace (an organisation admin works in all of the organisation's). */
export async function isActivePlatformWorker(executor: SqlExecutor, workspaceId: string, userId: string): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `SELECT 1 FROM platform_users u JOIN platform_workspaces w ON w.organization_id = u.organization_id
      WHERE u.id = $2 AND w.id = $1 AND u.status = 'active'
        AND (u.is_org_admin OR EXISTS (SELECT 1 FROM platform_memberships m WHERE m.workspace_id = $1 AND m.user_id = $2))`,
    [workspaceId, userId],
  );
  return rows.length > 0;
}

/** Whether the user belongs to the organisation (in any state: a filter may name a deactivated assignee). */
export async function isPlatformOrganizationUser(executor: SqlExecutor, organizationId: string, userId: string): Promise<boolean> {
  const { rows } = await sql(executor, `SELECT 1 FROM platform_users WHERE id = $1 AND organization_id = $2`, [userId, organizationId]);
  return rows.length > 0;
}

/** The addresses of the workspace's active admins (and its organisation's admins): a paused platform webhook's recipients. */
export async function platformWorkspaceAdminEmails(executor: Executor, workspaceId: string): Promise<string[]> {
  const { rows } = await sql<{ email: string }>(
    executor,
    `SELECT DISTINCT u.email FROM platform_users u JOIN platform_workspaces w ON w.organization_id = u.organization_id
      WHERE w.id = $1 AND u.status = 'active' AND u.role = 'admin' AND u.email IS NOT NULL
        AND (u.is_org_admin OR EXISTS (SELECT 1 FROM platform_memberships m WHERE m.workspace_id = w.id AND m.user_id = u.id))
      ORDER BY u.email`,
    [workspaceId],
  );
  return rows.map((r) => r.email);
}

// ── replies ──

/** A reply as the API writes it before the ticket's workflow takes it: hidden until published (version null). */
export async function insertPlatformReplyDraft(executor: SqlExecutor, r: { id: string; ticketId: string; authorId: string; body: string }): Promise<void> {
  await sql(executor, `INSERT INTO platform_ticket_replies (id, ticket_id, author_id, body, version) VALUES ($1, $2, $3, $4, NULL)`, [r.id, r.ticketId, r.authorId, r.body]);
}

/** Publishes a draft as the ticket's step `version` at `at`; false when there is no such draft (or it is published already). */
export async function publishPlatformReply(executor: Executor, ticketId: string, replyId: string, version: number, at: string): Promise<boolean> {
  const { rowCount } = await sql(
    executor,
    `UPDATE platform_ticket_replies SET version = $3, created_at = $4 WHERE id = $2 AND ticket_id = $1 AND version IS NULL`,
    [ticketId, replyId, version, at],
  );
  return (rowCount ?? 0) > 0;
}

/** Drops a draft that its ticket refused (published replies stay). */
export async function dropPlatformReplyDraft(executor: SqlExecutor, replyId: string): Promise<void> {
  await sql(executor, `DELETE FROM platform_ticket_replies WHERE id = $1 AND version IS NULL`, [replyId]);
}

/** A published reply. */
export async function findPlatformReply(executor: SqlExecutor, id: string): Promise<PlatformReplyRecord | null> {
  const { rows } = await sql<PlatformReplyRecord>(executor, `SELECT ${REPLY_COLUMNS} FROM platform_ticket_replies r WHERE r.id = $1 AND r.version IS NOT NULL`, [id]);
  return rows[0] ?? null;
}
