// GET /v1/tickets in SQL: the page and the count of one filtered, sorted list.
import type { Priority } from '../../domain/workspaces/types';
import type { TicketStatus } from '../../domain/tickets/types';
import { sql, type Executor, type SqlExecutor } from '../db';
import { TICKET_COLUMNS } from './tickets';

export type TicketListSort = 'createdAt' | 'updatedAt' | 'priority';

/** A validated list request (api/ticketing/tickets/schema.ts ListTicketsQuery). */
export interface TicketListQuery {
  workspaceId: string;
  status?: TicketStatus[];
  priority?: Priority[];
  category?: string;
  /** an agent id, or `unassigned` */
  assigneeId?: string;
  /** the caller's player id or the internal one (kpl_) */
  playerId?: string;
  search?: string;
  updatedSince?: string;
  sortBy: TicketListSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** A keyset position: the last row's sort value (ISO date or priority rank) and id. */
export interface TicketListPosition {
  v: string | number;
  id: string;
}

export interface TicketListSql {
  /** the page, one row more than `limit` (so the caller knows whether there are more) */
  page: { sql: string; params: unknown[] };
  /** for countMatches */
  count: { sql: string; estimateSql: string; params: unknown[] };
}

const SORT_COLUMN = { createdAt: 't.created_at', updatedAt: 't.updated_at', priority: 't.priority_rank' } as const;

/**
 * Builds the list SQL. Filters are ANDed; the order is (sort column, id) so both the
 * offset and the keyset position are stable. After a position, `offset` is ignored.
 * Rows carry the ticket's columns (toTicketRecord) and `sortValue`, the sort column.
 */
export function buildTicketListSql(q: TicketListQuery, forcedPlayerId: string | null, after: TicketListPosition | null): TicketListSql {
  const where: string[] = ['t.workspace_id = $1'];
  const params: unknown[] = [q.workspaceId];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.status) add((p) => `t.status = ANY(${p})`, q.status);
  if (q.priority) add((p) => `t.priority = ANY(${p})`, q.priority);
  if (q.category) add((p) => `t.category = ${p}`, q.category);
  if (q.assigneeId === 'unassigned') where.push('t.assignee_id IS NULL');
  else if (q.assigneeId) add((p) => `t.assignee_id = ${p}`, q.assigneeId);
  if (forcedPlayerId) add((p) => `t.player_id = ${p}`, forcedPlayerId);
  if (q.playerId) add((p) => `(t.player_id = ${p} OR t.player_ref = ${p})`, q.playerId);
  if (q.search) add((p) => `t.search @@ websearch_to_tsquery('english', ${p})`, q.search);
  if (q.updatedSince) add((p) => `t.updated_at >= ${p}`, q.updatedSince);
  const filterWhere = where.join(' AND ');
  const filterParams = [...params];

  const col = SORT_COLUMN[q.sortBy];
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  if (after) {
    params.push(after.v, after.id);
    const cmp = q.order === 'asc' ? '>' : '<';
    where.push(`(${col}, t.id) ${cmp} ($${params.length - 1}, $${params.length})`);
  }
  params.push(q.limit + 1);
  let sql = `SELECT ${TICKET_COLUMNS}, ${col} AS "sortValue" FROM tickets t WHERE ${where.join(' AND ')}
    ORDER BY ${col} ${dir}, t.id ${dir} LIMIT $${params.length}`;
  if (!after) {
    params.push(q.offset);
    sql += ` OFFSET $${params.length}`;
  }
  return {
    page: { sql, params },
    count: {
      sql: `SELECT count(*)::int AS total FROM (SELECT 1 FROM tickets t WHERE ${filterWhere} LIMIT ${EXACT_COUNT_CAP + 1}) matched`,
      estimateSql: `EXPLAIN (FORMAT JSON) SELECT 1 FROM tickets t WHERE ${filterWhere}`,
      params: filterParams,
    },
  };
}

/**
 * `pagination.total` is exact up to this many matches (like most search APIs). Counting every match of a word
 * that is in most of a large workspace's tickets costs tens of milliseconds per
 * request, so above the cap the total is the planner's estimate (never below the cap)
 * and `pagination.totalExact` is false. Paging itself (`hasMore`, cursors) is exact.
 */
/** One page of the list: `limit + 1` rows of buildTicketListSql's page query. */
export async function pageOfTickets(executor: Executor, page: { sql: string; params: unknown[] }): Promise<any[]> {
  return (await sql(executor, page.sql, page.params)).rows;
}

export const EXACT_COUNT_CAP = 1_000;

export async function countMatches(
  executor: SqlExecutor,
  count: { sql: string; estimateSql: string; params: unknown[] },
): Promise<{ total: number; totalExact: boolean }> {
  const exact: number = (await sql(executor, count.sql, count.params)).rows[0].total;
  if (exact <= EXACT_COUNT_CAP) return { total: exact, totalExact: true };
  const plan = (await sql(executor, count.estimateSql, count.params)).rows[0]['QUERY PLAN'];
  const estimate = Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: Math.max(estimate, EXACT_COUNT_CAP + 1), totalExact: false };
}
