// The outbox side of webhook delivery: turning recorded events into one delivery row per
// subscribed endpoint, grouped in dispatch batches. The rows are committed before any
// workflow starts, so the set a batch workflow is started with is fixed and a restart
// re-starts the same set (docs/webhooks.md, "From event to delivery").
import type { Db, Executor } from '../../db/db';
import { assignBatch, lockUndispatchedEvents, markClaimed, markDispatched, undispatchedBatches, type OutboxEvent } from '../../db/repositories/events';
import { insertDeliveries, type NewDelivery } from '../../db/repositories/webhook-deliveries';
import { liveEndpointsOf } from '../../db/repositories/webhook-endpoints';
import { newId } from '../../lib/ids';
import { webhookApi, type WebhookApiName, type WebhookApis } from './apis';
import { byApi, subscribersOf } from './fan-out.rules';

export interface ClaimedBatch {
  batchId: string;
  /** the batch's pending deliveries, one per event and active subscribed endpoint */
  deliveryIds: string[];
  events: number;
  /** the webhook API of the batch's events and endpoints: whose schedule its deliveries follow */
  api: WebhookApiName;
}

/** What one claim took: its batches, and whether it took all it could (`limit` events: more may wait). */
export interface EventClaim {
  batches: ClaimedBatch[];
  full: boolean;
}

/**
 * Claims up to `limit` undispatched events, oldest first (SKIP LOCKED: dispatchers on
 * several workers share the work), as one batch per webhook API among them (one batch when
 * they share an API, as they do while ticketing is the only one):
 * - events seen for the first time get a new batch id and their delivery rows: pending
 *   for each active endpoint of their API subscribed to their type, `skipped` for a
 *   paused one (visible in the log, redeliverable);
 * - events claimed more than `reclaimAfterMs` ago but never dispatched (the dispatcher
 *   died after claiming) keep their batch and rows: the batch is started again whole,
 *   with the same delivery ids, whichever of its events this claim happened to lock.
 * Batches with nothing to send are marked dispatched here and not returned; the caller
 * marks the others dispatched once their workflows are started (markDispatched).
 */
export async function claimEvents(db: Db, opts: { limit: number; reclaimAfterMs: number; apis?: WebhookApis }): Promise<EventClaim> {
  return db.transaction(async (q) => {
    const events = await lockUndispatchedEvents(q, opts.limit, opts.reclaimAfterMs);
    if (!events.length) return { batches: [], full: false };
    const batchIds = new Set(events.filter((e) => e.claimed_at).map((e) => e.batch_id ?? e.id));
    for (const fresh of byApi(events.filter((e) => !e.claimed_at))) {
      const batchId = newId('whb');
      batchIds.add(batchId);
      await createDeliveries(q, fresh, opts.apis);
      await assignBatch(q, fresh.map((e) => e.id), batchId);
    }
    // a claim from before batches existed is its own batch
    await markClaimed(q, events.map((e) => e.id));
    const rows = await undispatchedBatches(q, [...batchIds]);
    const idle = rows.filter((r) => !r.ids?.length).map((r) => r.batch_id);
    await markDispatched(q, idle);
    const batches = rows
      .filter((r) => r.ids?.length)
      .map((r) => ({ batchId: r.batch_id, deliveryIds: r.ids!, events: r.events, api: webhookApi(r.api, opts.apis).name }));
    return { batches, full: events.length >= opts.limit };
  });
}

/** The delivery rows of events of one API, each body in that API's envelope. */
async function createDeliveries(q: Executor, events: OutboxEvent[], apis?: WebhookApis): Promise<void> {
  const endpoints = await liveEndpointsOf(q, [...new Set(events.map((e) => e.workspace_id))]);
  const rows: NewDelivery[] = [];
  for (const e of events) {
    const { envelope } = webhookApi(e.api, apis);
    for (const ep of subscribersOf({ workspaceId: e.workspace_id, type: e.type, api: e.api, environment: e.environment }, endpoints)) {
      const id = newId('evt');
      rows.push({
        id,
        endpointId: ep.id,
        eventId: e.id,
        eventType: e.type,
        workspaceId: e.workspace_id,
        body: envelope(id, { type: e.type, workspaceId: e.workspace_id, occurredAt: e.occurred_at, data: e.data }),
        status: ep.active ? 'pending' : 'skipped',
      });
    }
  }
  await insertDeliveries(q, rows);
}
