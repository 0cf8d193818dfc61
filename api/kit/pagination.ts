// One pagination module for every API: the opaque keyset cursor and its page of
// `limit + 1` rows (ticket lists, delivery logs), and page/pageSize paging answered as { items, total, page, pageSize, totalPages }
// (the push spec's lists: devices, campaigns, trial requests).
import { errors } from './errors';
import { z } from '../zod';

/** A cursor is the position of the last row shown, as base64url JSON: opaque to clients. */
export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/**
 * The position in a cursor, if `valid` accepts it (it checks the types and that the
 * cursor belongs to the same list: the same sort or filter). Anything else is a 400
 * with `message`; a tampered value never reaches SQL.
 */
export function decodeCursor<T>(raw: string, valid: (c: any) => c is T, message: string): T {
  let c: unknown;
  let ok = false;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString());
    ok = c !== null && typeof c === 'object' && valid(c);
  } catch {
    ok = false;
  }
  if (!ok) throw errors.validation(message, { cursor: [message] });
  return c as T;
}

/** One keyset page: the rows shown, whether more follow, and the cursor that continues after them. */
export interface CursorPage<R> {
  rows: R[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The page from `limit + 1` rows read in list order (the extra row only tells that more
 * follow; it is never shown): the first `limit`, and `cursorAfter(last shown)` as the
 * next cursor when more follow, else null.
 */
export function cursorPage<R>(rows: R[], limit: number, cursorAfter: (last: R) => string): CursorPage<R> {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  return { rows: shown, hasMore, nextCursor: hasMore ? cursorAfter(shown[shown.length - 1]) : null };
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * An integer query parameter (limit, offset, page, pageSize). Query values arrive as
 * strings (or arrays when repeated, which is a 400); the default applies only when the
 * parameter is absent; out of range is a 400, never a silent cap.
 */
export function intQuery(def: number, min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d{1,16}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? def)
    // The document shows the parameter as the integer it means, not the raw string.
    .openapi({ type: 'integer', minimum: min, maximum: max, default: def } as object);
}

/** `page` (from 1) and `pageSize` (default 20, at most 100). */
export const PageQuery = z.object({
  page: intQuery(1, 1, 1_000_000),
  pageSize: intQuery(DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The SQL OFFSET of a page. */
export const offsetOf = (q: PageQuery) => (q.page - 1) * q.pageSize;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export function pageOf<T>(items: T[], total: number, q: PageQuery): Page<T> {
  return { items, total, page: q.page, pageSize: q.pageSize, totalPages: Math.ceil(total / q.pageSize) };
}

/** The OpenAPI/zod schema of a page of `item`. */
export const PageSchema = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
  });
