import type { z } from 'zod';
import type { Queryable } from '../../../db/db';
import { decodeCursor, encodeCursor } from '../../kit/pagination';
import { TICKET_COLUMNS } from '../../../db/repositories/tickets';
import type { ListTicketsQuery } from './schema';

type Query = z.infer<typeof ListTicketsQuery>;

const SORT_COLUMN = { createdAt: 't.created_at', updatedAt: 't.updated_at', priority: 't.priority_rank' } as const;

interface Cursor {
  s: Query['sortBy'];
  o: Query['order'];
  v: string | number;
  id: string;
}

export { encodeCursor };

// Only a position of this very list: the same sort, an id, and a value of the sort
// column's type (a date string or a priority rank), so a tampered cursor is a 400.
function decodeListCursor(raw: string, q: Query): Cursor {
  const valid = (c: any): c is Cursor =>
    c.s === q.sortBy &&
    c.o === q.order &&
    typeof c.id === 'string' &&
    !c.id.includes('\u0000') &&
    (q.sortBy === 'priority' ? Number.isInteger(c.v) : typeof c.v === 'string' && !Number.isNaN(Date.parse(c.v)));
  return decodeCursor(raw, valid, 'cursor: invalid, or from a list with another sortBy/order');
}

/**
 * Builds the list SQL. Filters are ANDed; the order is (sort column, id) so both the
 * offset and the keyset cursor are stable. With a cursor, `offset` is ignored.
 */
export function buildListQuery(q: Query, forcedPlayerId: string | null) {
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
  if (q.cursor) {
    const c = decodeListCursor(q.cursor, q);
    params.push(c.v, c.id);
    const cmp = q.order === 'asc' ? '>' : '<';
    where.push(`(${col}, t.id) ${cmp} ($${params.length - 1}, $${params.length})`);
  }
  params.push(q.limit + 1);
  let sql = `SELECT ${TICKET_COLUMNS}, ${col} AS "sortValue" FROM tickets t WHERE ${where.join(' AND ')}
    ORDER BY ${col} ${dir}, t.id ${dir} LIMIT $${params.length}`;
  if (!q.cursor) {
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
    cursorFor: (row: { sortValue: unknown; id: string }) =>
      encodeCursor({
        s: q.sortBy,
        o: q.order,
        v: row.sortValue instanceof Date ? row.sortValue.toISOString() : (row.sortValue as number),
        id: row.id,
      }),
  };
}

/**
 * `pagination.total` is exact up to this many matches (like most search APIs). Counting every match of a word
 * that is in most of a large workspace's tickets costs tens of milliseconds per
 * request, so above the cap the total is the planner's estimate (never below the cap)
 * and `pagination.totalExact` is false. Paging itself (`hasMore`, cursors) is exact.
 */
export const EXACT_COUNT_CAP = 1_000;

export async function countMatches(
  db: Queryable,
  count: { sql: string; estimateSql: string; params: unknown[] },
): Promise<{ total: number; totalExact: boolean }> {
  const exact: number = (await db.query(count.sql, count.params)).rows[0].total;
  if (exact <= EXACT_COUNT_CAP) return { total: exact, totalExact: true };
  const plan = (await db.query(count.estimateSql, count.params)).rows[0]['QUERY PLAN'];
  const estimate = Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: Math.max(estimate, EXACT_COUNT_CAP + 1), totalExact: false };
}
