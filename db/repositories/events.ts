// events: the outbox of domain events. Every change that announces itself appends here
// in its own transaction (recordEvent, the only writer); the webhook dispatcher claims
// what has committed (SKIP LOCKED, SQL through the query API) and marks it dispatched.
import { DEFAULT_WEBHOOK_API, type WebhookApiName } from '../../domain/webhooks/api-names';
import { newId } from '../../lib/ids';
import { sql, type Executor } from '../db';

export type EventType =
  | 'ticket.created'
  | 'ticket.updated'
  | 'ticket.assigned'
  | 'ticket.resolved'
  | 'ticket.closed'
  | 'message.created'
  | 'player.created'
  | 'sla.breached'
  // the platform API's own (domain/platform/webhook-events.ts)
  | 'ticket.sla_breached'
  | 'automation.fired'
  | 'risk_signal.triggered';

export interface NewEvent {
  /** a new evt_ id when not given */
  id?: string;
  workspaceId: string;
  type: EventType;
  subjectId: string;
  data: unknown;
  at: string | Date;
  /** from the workflow step or the entity: a retried write records its event once */
  dedupeKey: string;
  /** the webhook API whose endpoints it goes to; default 'ticketing' */
  api?: WebhookApiName;
  /** a platform event's environment (its ticket's): only that environment's endpoints receive it */
  environment?: 'live' | 'test';
}

/** Appends to the outbox inside the caller's transaction; a second event with the same dedupeKey is dropped. */
export async function recordEvent(executor: Executor, e: NewEvent): Promise<void> {
  await sql(
    executor,
    `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key, api, environment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (dedupe_key) DO NOTHING`,
    [e.id ?? newId('evt'), e.workspaceId, e.type, e.subjectId, JSON.stringify(e.data), e.at, e.dedupeKey, e.api ?? DEFAULT_WEBHOOK_API, e.environment ?? null],
  );
}

export interface OutboxEvent {
  id: string;
  workspace_id: string;
  type: string;
  data: unknown;
  occurred_at: Date;
  claimed_at: Date | null;
  batch_id: string | null;
  /** the webhook API whose endpoints it goes to */
  api: string;
  /** a platform event's environment; null for the ticketing API's */
  environment: string | null;
}

/**
 * Up to `limit` undispatched events, oldest first, locked for the caller's transaction
 * (SKIP LOCKED: dispatchers on several workers share the work): never claimed, or claimed
 * more than `reclaimAfterMs` ago and never dispatched.
 */
export async function lockUndispatchedEvents(executor: Executor, limit: number, reclaimAfterMs: number): Promise<OutboxEvent[]> {
  const { rows } = await sql<OutboxEvent>(
    executor,
    `SELECT id, workspace_id, type, data, occurred_at, claimed_at, batch_id, api, environment FROM events
      WHERE dispatched_at IS NULL
        AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::double precision / 1000))
      ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit, reclaimAfterMs],
  );
  return rows;
}

/** Puts fresh events into a dispatch batch. */
export async function assignBatch(executor: Executor, eventIds: string[], batchId: string): Promise<void> {
  await sql(executor, `UPDATE events SET batch_id = $2 WHERE id = ANY($1::text[])`, [eventIds, batchId]);
}

/** Claimed now; a claim from before batches existed becomes its own batch. */
export async function markClaimed(executor: Executor, eventIds: string[]): Promise<void> {
  await sql(executor, `UPDATE events SET claimed_at = now(), batch_id = COALESCE(batch_id, id) WHERE id = ANY($1::text[])`, [eventIds]);
}

export interface UndispatchedBatch {
  batch_id: string;
  ids: string[] | null;
  events: number;
  /** the webhook API of its events (a batch holds events of one API) */
  api: string;
}

/** Per undispatched batch: its pending (non-synthetic) delivery ids, its event count and its API. */
export async function undispatchedBatches(executor: Executor, batchIds: string[]): Promise<UndispatchedBatch[]> {
  const { rows } = await sql<UndispatchedBatch>(
    executor,
    `SELECT e.batch_id, array_agg(d.id ORDER BY d.id) FILTER (WHERE d.status = 'pending' AND NOT d.synthetic) AS ids,
            count(DISTINCT e.id)::int AS events, min(e.api) AS api
       FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
      WHERE e.batch_id = ANY($1::text[]) AND e.dispatched_at IS NULL
      GROUP BY e.batch_id`,
    [batchIds],
  );
  return rows;
}

/** The batches whose workflows are started (or had nothing to send): done with their events. */
export async function markDispatched(executor: Executor, batchIds: string[]): Promise<void> {
  if (batchIds.length) {
    await sql(executor, `UPDATE events SET dispatched_at = now() WHERE batch_id = ANY($1::text[]) AND dispatched_at IS NULL`, [batchIds]);
  }
}

/**
 * Player erasure: events about the profile (subject) and events whose payload names the
 * player (ticket.* carry playerId, message.created the player as author) get `erased`
 * as their data. Returns their ids.
 */
export async function eraseEventsNaming(
  executor: Executor,
  p: { id: string; workspaceId: string; playerId: string },
  erased: unknown,
): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    executor,
    `UPDATE events SET data = $4::jsonb
      WHERE subject_id = $1
         OR (workspace_id = $2 AND (
              data->>'playerId' IN ($3, $1)
           OR (data->>'authorType' = 'player' AND data->>'authorId' IN ($3, $1))))
      RETURNING id`,
    [p.id, p.workspaceId, p.playerId, JSON.stringify(erased)],
  );
  return rows.map((r) => r.id);
}
