// The outbox side of webhook delivery: turning recorded events into one delivery row per
// subscribed endpoint. The rows are committed before any workflow starts, so the set a
// workflow is started with is fixed and a restart re-starts the same set (docs/webhooks.md,
// "From event to delivery").
import type { Db, Queryable } from '../../db/db';
import { newId } from '../../lib/ids';

export interface ClaimedEvent {
  eventId: string;
  workspaceId: string;
  type: string;
  /** pending deliveries to send, one per active subscribed endpoint */
  deliveryIds: string[];
}

interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  data: unknown;
  occurred_at: Date;
  claimed_at: Date | null;
}

/** The envelope as the spec defines it; its bytes are stored and sent unchanged on every attempt. */
export function envelope(deliveryId: string, e: { type: string; workspaceId: string; occurredAt: Date | string; data: unknown }): string {
  const timestamp = new Date(e.occurredAt).toISOString();
  return JSON.stringify({ id: deliveryId, event: e.type, workspaceId: e.workspaceId, timestamp, data: e.data });
}

/**
 * Claims up to `limit` undispatched events, oldest first (SKIP LOCKED: dispatchers on
 * several workers share the work). An event seen for the first time gets its delivery
 * rows: pending for each active endpoint subscribed to its type, `skipped` for a paused
 * one (visible in the log, redeliverable). An event claimed more than `reclaimAfterMs`
 * ago but never dispatched (the dispatcher died after claiming) keeps the rows it has.
 * Events with nothing to send are marked dispatched here and not returned.
 */
export async function claimEvents(db: Db, opts: { limit: number; reclaimAfterMs: number }): Promise<ClaimedEvent[]> {
  return db.tx(async (q) => {
    const { rows: events } = await q.query<EventRow>(
      `SELECT id, workspace_id, type, data, occurred_at, claimed_at FROM events
        WHERE dispatched_at IS NULL
          AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::double precision / 1000))
        ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [opts.limit, opts.reclaimAfterMs],
    );
    if (!events.length) return [];
    const fresh = events.filter((e) => !e.claimed_at);
    if (fresh.length) await createDeliveries(q, fresh);
    const ids = events.map((e) => e.id);
    const { rows: pending } = await q.query<{ id: string; event_id: string }>(
      `SELECT id, event_id FROM webhook_deliveries
        WHERE event_id = ANY($1::text[]) AND NOT synthetic AND status = 'pending' ORDER BY id`,
      [ids],
    );
    const byEvent = new Map<string, string[]>();
    for (const d of pending) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), d.id]);
    const idle = ids.filter((id) => !byEvent.has(id));
    await q.query(`UPDATE events SET claimed_at = now() WHERE id = ANY($1::text[])`, [ids]);
    if (idle.length) await q.query(`UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])`, [idle]);
    return events.filter((e) => byEvent.has(e.id)).map((e) => ({ eventId: e.id, workspaceId: e.workspace_id, type: e.type, deliveryIds: byEvent.get(e.id)! }));
  });
}

async function createDeliveries(q: Queryable, events: EventRow[]): Promise<void> {
  const { rows: endpoints } = await q.query<{ id: string; workspace_id: string; events: string[]; active: boolean }>(
    `SELECT id, workspace_id, events, active FROM webhook_endpoints
      WHERE workspace_id = ANY($1::text[]) AND deleted_at IS NULL`,
    [[...new Set(events.map((e) => e.workspace_id))]],
  );
  const cols = { id: [] as string[], endpoint: [] as string[], event: [] as string[], type: [] as string[], ws: [] as string[], body: [] as string[], status: [] as string[] };
  for (const e of events) {
    for (const ep of endpoints) {
      if (ep.workspace_id !== e.workspace_id || !ep.events.includes(e.type)) continue;
      const id = newId('evt');
      cols.id.push(id);
      cols.endpoint.push(ep.id);
      cols.event.push(e.id);
      cols.type.push(e.type);
      cols.ws.push(e.workspace_id);
      cols.body.push(envelope(id, { type: e.type, workspaceId: e.workspace_id, occurredAt: e.occurred_at, data: e.data }));
      cols.status.push(ep.active ? 'pending' : 'skipped');
    }
  }
  if (!cols.id.length) return;
  await q.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, status, completed_at)
     SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.workspace_id, d.body, d.status,
            CASE WHEN d.status = 'skipped' THEN now() END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS d(id, endpoint_id, event_id, event_type, workspace_id, body, status)
     ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
    [cols.id, cols.endpoint, cols.event, cols.type, cols.ws, cols.body, cols.status],
  );
}

/** The events whose workflows are started: done with them. */
export async function markDispatched(db: Queryable, eventIds: string[]): Promise<void> {
  if (eventIds.length) await db.query(`UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])`, [eventIds]);
}
