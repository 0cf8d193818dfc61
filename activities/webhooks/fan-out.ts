// The outbox side of webhook delivery: turning recorded events into one delivery row per
// subscribed endpoint, grouped in dispatch batches. The rows are committed before any
// workflow starts, so the set a batch workflow is started with is fixed and a restart
// re-starts the same set (docs/webhooks.md, "From event to delivery").
import type { Db, Queryable } from '../../db/db';
import { newId } from '../../lib/ids';

export interface ClaimedBatch {
  batchId: string;
  /** the batch's pending deliveries, one per event and active subscribed endpoint */
  deliveryIds: string[];
  events: number;
}

interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  data: unknown;
  occurred_at: Date;
  claimed_at: Date | null;
  batch_id: string | null;
}

/** The envelope as the spec defines it; its bytes are stored and sent unchanged on every attempt. */
export function envelope(deliveryId: string, e: { type: string; workspaceId: string; occurredAt: Date | string; data: unknown }): string {
  const timestamp = new Date(e.occurredAt).toISOString();
  return JSON.stringify({ id: deliveryId, event: e.type, workspaceId: e.workspaceId, timestamp, data: e.data });
}

/**
 * Claims up to `limit` undispatched events, oldest first (SKIP LOCKED: dispatchers on
 * several workers share the work), as one batch:
 * - events seen for the first time get a new batch id and their delivery rows: pending
 *   for each active endpoint subscribed to their type, `skipped` for a paused one
 *   (visible in the log, redeliverable);
 * - events claimed more than `reclaimAfterMs` ago but never dispatched (the dispatcher
 *   died after claiming) keep their batch and rows: the batch is started again whole,
 *   with the same delivery ids, whichever of its events this claim happened to lock.
 * Batches with nothing to send are marked dispatched here and not returned.
 */
export async function claimEvents(db: Db, opts: { limit: number; reclaimAfterMs: number }): Promise<ClaimedBatch[]> {
  return db.tx(async (q) => {
    const { rows: events } = await q.query<EventRow>(
      `SELECT id, workspace_id, type, data, occurred_at, claimed_at, batch_id FROM events
        WHERE dispatched_at IS NULL
          AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::double precision / 1000))
        ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [opts.limit, opts.reclaimAfterMs],
    );
    if (!events.length) return [];
    const fresh = events.filter((e) => !e.claimed_at);
    const batchIds = new Set(events.filter((e) => e.claimed_at).map((e) => e.batch_id ?? e.id));
    if (fresh.length) {
      const batchId = newId('whb');
      batchIds.add(batchId);
      await createDeliveries(q, fresh);
      await q.query(`UPDATE events SET batch_id = $2 WHERE id = ANY($1::text[])`, [fresh.map((e) => e.id), batchId]);
    }
    // a claim from before batches existed is its own batch
    await q.query(`UPDATE events SET claimed_at = now(), batch_id = COALESCE(batch_id, id) WHERE id = ANY($1::text[])`, [events.map((e) => e.id)]);
    const { rows } = await q.query<{ batch_id: string; ids: string[]; events: number }>(
      `SELECT e.batch_id, array_agg(d.id ORDER BY d.id) FILTER (WHERE d.status = 'pending' AND NOT d.synthetic) AS ids,
              count(DISTINCT e.id)::int AS events
         FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.batch_id = ANY($1::text[]) AND e.dispatched_at IS NULL
        GROUP BY e.batch_id`,
      [[...batchIds]],
    );
    const idle = rows.filter((r) => !r.ids?.length).map((r) => r.batch_id);
    await markDispatched(q, idle);
    return rows.filter((r) => r.ids?.length).map((r) => ({ batchId: r.batch_id, deliveryIds: r.ids, events: r.events }));
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

/** The batches whose workflows are started (or had nothing to send): done with their events. */
export async function markDispatched(db: Queryable, batchIds: string[]): Promise<void> {
  if (batchIds.length) {
    await db.query(`UPDATE events SET dispatched_at = now() WHERE batch_id = ANY($1::text[]) AND dispatched_at IS NULL`, [batchIds]);
  }
}
