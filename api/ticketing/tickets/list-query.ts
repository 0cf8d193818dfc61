import type { z } from 'zod';
import { buildTicketListSql, type TicketListPosition, type TicketListSql } from '../../../db/repositories/ticket-list';
import { decodeCursor, encodeCursor } from '../../kit/pagination';
import type { ListTicketsQuery } from './schema';

type Query = z.infer<typeof ListTicketsQuery>;

interface Cursor extends TicketListPosition {
  s: Query['sortBy'];
  o: Query['order'];
}

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
 * The list request as SQL (db/repositories/ticket-list.ts) from the parsed query and its
 * cursor, with the cursor that continues after a given row. With a cursor, `offset` is
 * ignored.
 */
export function buildListQuery(q: Query, forcedPlayerId: string | null): TicketListSql & { cursorFor: (row: { sortValue: unknown; id: string }) => string } {
  const after = q.cursor ? decodeListCursor(q.cursor, q) : null;
  return {
    ...buildTicketListSql(q, forcedPlayerId, after && { v: after.v, id: after.id }),
    cursorFor: (row) =>
      encodeCursor({
        s: q.sortBy,
        o: q.order,
        v: row.sortValue instanceof Date ? row.sortValue.toISOString() : (row.sortValue as number),
        id: row.id,
      }),
  };
}
