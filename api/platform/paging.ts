// The platform API's lists (contracts.md, "Platform API"): `?page` (from 1) and
// `?per_page` (default 25, at most 100: 101 is a 400), answered as
// `{ data, page, per_page, total, next_page }`, next_page the URL of the next page or null.
import type { Context } from 'koa';
import { intQuery } from '../kit/pagination';
import { z } from '../zod';

export const PLATFORM_DEFAULT_PER_PAGE = 25;
export const PLATFORM_MAX_PER_PAGE = 100;

export const PlatformPageQuery = z.object({
  page: intQuery(1, 1, 1_000_000),
  per_page: intQuery(PLATFORM_DEFAULT_PER_PAGE, 1, PLATFORM_MAX_PER_PAGE),
});
export type PlatformPageQuery = z.infer<typeof PlatformPageQuery>;

/** The SQL OFFSET and LIMIT of a page. */
export const offsetAndLimit = (q: PlatformPageQuery) => ({ offset: (q.page - 1) * q.per_page, limit: q.per_page });

export interface PlatformList<T> {
  data: T[];
  page: number;
  per_page: number;
  total: number;
  next_page: string | null;
}

/** A page of `data` out of `total`, with the URL of the next page (this request's URL, `page` moved on). */
export function platformList<T>(ctx: Context, data: T[], total: number, q: PlatformPageQuery): PlatformList<T> {
  let next: string | null = null;
  if (q.page * q.per_page < total) {
    const url = new URL(ctx.originalUrl, ctx.origin);
    url.searchParams.set('page', String(q.page + 1));
    url.searchParams.set('per_page', String(q.per_page));
    next = url.toString();
  }
  return { data, page: q.page, per_page: q.per_page, total, next_page: next };
}

/** The OpenAPI/zod schema of a list of `item`. */
export const PlatformListSchema = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    data: z.array(item),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    next_page: z.string().nullable().openapi({ description: 'The URL of the next page; null on the last' }),
  });
