// The endpoint's delivery log as the API pages it: the opaque cursor over (created_at, id)
// and its status filter. The table's SQL is in db/repositories/webhook-delivery-log.ts.
import { pageOfDeliveries, type DeliveryRow } from '../../../db/repositories/webhook-delivery-log';
import type { Executor } from '../../../db/db';
import { cursorPage, decodeCursor, encodeCursor } from '../../kit/pagination';
import type { DeliveriesQuery } from './schema';

export { attemptsOf, findLoggedDelivery as findDelivery, type DeliveryRow } from '../../../db/repositories/webhook-delivery-log';

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

// The status filter is part of the cursor, so a cursor cannot be replayed on another filter.
interface Cursor {
  at: string;
  id: string;
  st: string | null;
}
// A tampered time must be a 400 here, not a cast error from Postgres (2024-02-31 …).
const validTime = (at: unknown) =>
  typeof at === 'string' && CURSOR_TIME.test(at) && new Date(at).toISOString().slice(0, 23) === at.slice(0, 23);

function decodeDeliveryCursor(raw: string, status: string | null): Cursor {
  const valid = (c: any): c is Cursor =>
    typeof c.id === 'string' && /^evt_[0-9a-zA-Z]{1,60}$/.test(c.id) && c.st === status && validTime(c.at);
  return decodeCursor(raw, valid, 'cursor: invalid, or from a list with another status filter');
}

/** One page, newest first by (created_at, id); `limit + 1` rows tell whether more follow. */
export async function listDeliveries(executor: Executor, endpointId: string, q: DeliveriesQuery) {
  const status = q.status ?? null;
  const before = q.cursor ? decodeDeliveryCursor(q.cursor, status) : null;
  const rows: DeliveryRow[] = await pageOfDeliveries(executor, endpointId, { status, before, limit: q.limit + 1 });
  return cursorPage(rows, q.limit, (last) => encodeCursor({ at: last.created_key, id: last.id, st: status }));
}
