// "The row if the caller may see it, else 404": the one lookup behind every route that
// names a row by its id (tickets, players, agents, webhook endpoints, push apps' rows).
// Only the two answers that mean "not for you" become the resource's 404: no such row,
// and an access check that refuses. Every other failure (PostgreSQL or Redis away during
// the access check) passes through to the error middleware, which answers 503 with
// Retry-After (api/kit/dependency-errors.ts): an outage must never read as "absent".
import { AppError } from './errors';

/** Whether the caller may see the row; a thrown error is a failure, not a "no". */
export type MayUse<R> = (row: R) => boolean | Promise<boolean>;

/**
 * `row` (or what `find` resolves to) if it exists and `mayUse` says yes; otherwise the
 * resource's own 404 from `notFound`. Errors of `find` and `mayUse` are not caught.
 */
export async function visibleRow<R>(row: R | null | undefined | Promise<R | null | undefined>, mayUse: MayUse<R>, notFound: () => Error): Promise<R> {
  const found = await row;
  if (found === null || found === undefined || !(await mayUse(found))) throw notFound();
  return found;
}

/**
 * An access check (one that throws its refusal) as a yes/no: its refusal with `status`
 * (403 from a workspace check, 404 from an app check) is `false`; any other error,
 * including another refusal, is thrown on.
 */
export async function allowedUnless(status: number, check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === status) return false;
    throw err;
  }
}
