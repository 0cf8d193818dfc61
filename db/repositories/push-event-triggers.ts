// push_event_triggers and push_trigger_firings (docs/push.md, "Event triggers"). A fire
// reads the app's enabled triggers of the event and the device's existence in one
// statement (fireCandidates), then its transaction writes one firing per matched trigger
// in one statement (insertFirings). The firing dispatcher claims them into batches
// (lockUndispatchedFirings, claimFirings, firingBatches, markFiringBatchesDispatched); the
// batch workflow's activity locks a batch's firings, checks their triggers, and binds
// them to the sends it created (so a retried activity reuses those sends).
import { sql, type Executor } from '../db';
import type { EventTriggerRecord, FiringOutcome, FiringStatus, TriggerBatchCounts } from '../../domain/push/types';

const COLUMNS = `id, app_id AS "appId", name, event_name AS "eventName", delay_minutes AS "delayMinutes", conditions,
  title, body, enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;

export type NewEventTrigger = Omit<EventTriggerRecord, 'createdAt' | 'updatedAt'>;

export async function insertEventTrigger(ex: Executor, t: NewEventTrigger): Promise<EventTriggerRecord> {
  const { rows } = await sql<EventTriggerRecord>(
    ex,
    `INSERT INTO push_event_triggers (id, app_id, name, event_name, delay_minutes, conditions, title, body, enabled)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) RETURNING ${COLUMNS}`,
    [t.id, t.appId, t.name, t.eventName, t.delayMinutes, JSON.stringify(t.conditions), t.title, t.body, t.enabled],
  );
  return rows[0];
}

export async function findEventTrigger(ex: Executor, id: string): Promise<EventTriggerRecord | null> {
  const { rows } = await sql<EventTriggerRecord>(ex, `SELECT ${COLUMNS} FROM push_event_triggers WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** An app's triggers, oldest first (index push_event_triggers_app). */
export async function listEventTriggers(ex: Executor, appId: string): Promise<EventTriggerRecord[]> {
  const { rows } = await sql<EventTriggerRecord>(ex, `SELECT ${COLUMNS} FROM push_event_triggers WHERE app_id = $1 ORDER BY created_at, id`, [appId]);
  return rows;
}

export type EventTriggerChanges = Partial<Pick<NewEventTrigger, 'name' | 'eventName' | 'delayMinutes' | 'conditions' | 'title' | 'body' | 'enabled'>>;

/** The changed trigger; null when there is no such trigger. */
export async function updateEventTrigger(ex: Executor, id: string, c: EventTriggerChanges): Promise<EventTriggerRecord | null> {
  const { rows } = await sql<EventTriggerRecord>(
    ex,
    `UPDATE push_event_triggers SET
        name = COALESCE($2, name), event_name = COALESCE($3, event_name), delay_minutes = COALESCE($4, delay_minutes),
        conditions = COALESCE($5::jsonb, conditions), title = COALESCE($6, title), body = COALESCE($7, body),
        enabled = COALESCE($8, enabled), updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      c.name ?? null,
      c.eventName ?? null,
      c.delayMinutes ?? null,
      c.conditions ? JSON.stringify(c.conditions) : null,
      c.title ?? null,
      c.body ?? null,
      c.enabled ?? null,
    ],
  );
  return rows[0] ?? null;
}

/** false: there was no such trigger. Its firings stay (trigger_id null): when due they record skipped_deleted. */
export async function deleteEventTrigger(ex: Executor, id: string): Promise<boolean> {
  const { rowCount } = await sql(ex, `DELETE FROM push_event_triggers WHERE id = $1`, [id]);
  return rowCount === 1;
}

export type FireCandidate = Pick<EventTriggerRecord, 'id' | 'delayMinutes' | 'conditions' | 'title' | 'body'>;

/**
 * What a fire needs, in one round trip: whether the device is the app's (found by its
 * primary key, whatever the app's size), and the app's enabled triggers of the event
 * (none when the device is not the app's).
 */
export async function fireCandidates(ex: Executor, appId: string, deviceId: string, eventName: string): Promise<{ deviceKnown: boolean; triggers: FireCandidate[] }> {
  const { rows } = await sql<{ known: boolean; id: string | null } & Omit<FireCandidate, 'id'>>(
    ex,
    `SELECT d.known, t.id, t.delay_minutes AS "delayMinutes", t.conditions, t.title, t.body
       FROM (SELECT COALESCE((SELECT app_id = $1 FROM push_devices WHERE id = $2), false) AS known) d
       LEFT JOIN push_event_triggers t ON d.known AND t.app_id = $1 AND t.event_name = $3 AND t.enabled
      ORDER BY t.created_at, t.id`,
    [appId, deviceId, eventName],
  );
  return {
    deviceKnown: rows[0]?.known ?? false,
    triggers: rows.filter((r) => r.id !== null).map(({ id, delayMinutes, conditions, title, body }) => ({ id: id!, delayMinutes, conditions, title, body })),
  };
}

export interface NewFiring {
  id: string;
  triggerId: string;
  title: string;
  body: string;
  sendAt: Date;
}

/**
 * Firings put straight into a batch, for a caller that starts the batch's workflow itself
 * (the workflow tests and the history recorder, whose firings the suite's dispatcher
 * must not take): claimed now, and dispatched unless `dispatched` is false (as if a
 * dispatcher claimed them and died before the start: taken up again after the reclaim time).
 */
export interface FiringBatch {
  batchId: string;
  dispatched: boolean;
}

/** The firings of one fire, in one statement (inside the fire's transaction); its NOTIFY wakes the firing dispatcher. */
export async function insertFirings(ex: Executor, fire: { fireId: string; appId: string; deviceId: string }, firings: NewFiring[], batch?: FiringBatch): Promise<void> {
  if (!firings.length) return;
  await sql(
    ex,
    `INSERT INTO push_trigger_firings (id, fire_id, app_id, trigger_id, device_id, title, body, send_at, batch_id, claimed_at, dispatched_at)
     SELECT f.id, $1, $2, f.trigger_id, $3, f.title, f.body, f.send_at,
            $9::uuid, CASE WHEN $9::uuid IS NOT NULL THEN now() END, CASE WHEN $10 THEN now() END
       FROM unnest($4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::timestamptz[]) AS f(id, trigger_id, title, body, send_at)`,
    [
      fire.fireId,
      fire.appId,
      fire.deviceId,
      firings.map((f) => f.id),
      firings.map((f) => f.triggerId),
      firings.map((f) => f.title),
      firings.map((f) => f.body),
      firings.map((f) => f.sendAt.toISOString()),
      batch?.batchId ?? null,
      batch?.dispatched ?? false,
    ],
  );
}

/** How many firings a fire made (an Idempotency-Key retry answers it again). */
export async function countFiringsOf(ex: Executor, fireId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_trigger_firings WHERE fire_id = $1`, [fireId]);
  return rows[0].n;
}

export interface UndispatchedFiring {
  id: string;
  batchId: string | null;
  sendAtMs: number;
  /**
   * Due at once (delay 0): its due time is within 30 s of its row's commit. Delays are
   * whole minutes, so this tells delay 0 from any other whatever the API's clock says
   * beside the database's.
   */
  atOnce: boolean;
}

/**
 * Up to `limit` undispatched firings, soonest due first, locked for the caller's
 * transaction (SKIP LOCKED: the dispatchers of several push workers share the work):
 * never claimed, or claimed more than `reclaimAfterMs` ago and never dispatched.
 */
export async function lockUndispatchedFirings(ex: Executor, limit: number, reclaimAfterMs: number): Promise<UndispatchedFiring[]> {
  const { rows } = await sql<UndispatchedFiring>(
    ex,
    `SELECT id, batch_id AS "batchId", (extract(epoch FROM send_at) * 1000)::float8 AS "sendAtMs",
            send_at < created_at + interval '30 seconds' AS "atOnce"
       FROM push_trigger_firings
      WHERE dispatched_at IS NULL
        AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::double precision / 1000))
      ORDER BY send_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit, reclaimAfterMs],
  );
  return rows;
}

/** Claimed now, each into the batch given (a reclaimed firing keeps its batch). */
export async function claimFirings(ex: Executor, claims: Array<{ id: string; batchId: string }>): Promise<void> {
  if (!claims.length) return;
  await sql(
    ex,
    `UPDATE push_trigger_firings f SET batch_id = c.batch_id, claimed_at = now()
       FROM unnest($1::uuid[], $2::uuid[]) AS c(id, batch_id) WHERE f.id = c.id`,
    [claims.map((c) => c.id), claims.map((c) => c.batchId)],
  );
}

/**
 * Per batch among `batchIds`: when it is due (0: all its firings are due at once, else
 * the latest due time of its firings) and how many firings it holds. The same answer for
 * a batch taken up again, so its workflow's input never changes.
 */
export async function firingBatches(ex: Executor, batchIds: string[]): Promise<Array<{ batchId: string; sendAtMs: number; firings: number }>> {
  if (!batchIds.length) return [];
  const { rows } = await sql<{ batchId: string; sendAtMs: number; firings: number }>(
    ex,
    `SELECT batch_id AS "batchId",
            CASE WHEN bool_and(send_at < created_at + interval '30 seconds') THEN 0
                 ELSE (extract(epoch FROM max(send_at)) * 1000)::float8 END AS "sendAtMs",
            count(*)::int AS firings
       FROM push_trigger_firings WHERE batch_id = ANY($1::uuid[]) GROUP BY batch_id ORDER BY batch_id`,
    [batchIds],
  );
  return rows;
}

/** The batches whose workflows are started: done with their firings. */
export async function markFiringBatchesDispatched(ex: Executor, batchIds: string[]): Promise<void> {
  if (!batchIds.length) return;
  await sql(ex, `UPDATE push_trigger_firings SET dispatched_at = now() WHERE batch_id = ANY($1::uuid[]) AND dispatched_at IS NULL`, [batchIds]);
}

export interface DueFiring {
  id: string;
  appId: string;
  deviceId: string;
  title: string;
  body: string;
  status: FiringStatus;
  sendId: string | null;
  /** null: the trigger was deleted */
  triggerEnabled: boolean | null;
  /** the device's platform when it can be sent to now (the app's, active); null otherwise */
  sendablePlatform: 'Android' | 'iOS' | null;
}

/**
 * A batch's firings, locked for the caller's transaction, each with its trigger's state
 * and its device's now (one statement), in the order they were fired. None: gone with
 * their app.
 */
export async function lockBatchFirings(ex: Executor, batchId: string): Promise<DueFiring[]> {
  const { rows } = await sql<DueFiring>(
    ex,
    `SELECT f.id, f.app_id AS "appId", f.device_id AS "deviceId", f.title, f.body, f.status, f.send_id AS "sendId",
            t.enabled AS "triggerEnabled", CASE WHEN d.is_active THEN d.platform END AS "sendablePlatform"
       FROM push_trigger_firings f
       LEFT JOIN push_event_triggers t ON t.id = f.trigger_id
       LEFT JOIN push_devices d ON d.id = f.device_id AND d.app_id = f.app_id
      WHERE f.batch_id = $1
      ORDER BY f.send_at, f.id
        FOR UPDATE OF f`,
    [batchId],
  );
  return rows;
}

/** What became of some firings of a batch: a skip, or `sending` with the send made for them. */
export async function setFiringStatuses(ex: Executor, changes: Array<{ id: string; status: FiringStatus; sendId: string | null }>): Promise<void> {
  if (!changes.length) return;
  await sql(
    ex,
    `UPDATE push_trigger_firings f SET status = c.status, send_id = c.send_id,
            finished_at = CASE WHEN c.status IN ('pending', 'sending') THEN NULL ELSE now() END
       FROM unnest($1::uuid[], $2::text[], $3::uuid[]) AS c(id, status, send_id) WHERE f.id = c.id`,
    [changes.map((c) => c.id), changes.map((c) => c.status), changes.map((c) => c.sendId)],
  );
}

/**
 * After its pushes: each `sending` firing of the batch takes its notification's outcome
 * (`sent` or `failed`; the notification's id is the firing's), in one statement, and the
 * batch's firings are counted by status. A firing whose send went with its app is gone
 * and not counted.
 */
export async function settleBatchFirings(ex: Executor, batchId: string): Promise<TriggerBatchCounts> {
  const { rows } = await sql<{ status: FiringOutcome; n: number }>(
    ex,
    `WITH settled AS (
       UPDATE push_trigger_firings f SET status = n.status, finished_at = now()
         FROM push_notifications n
        WHERE f.batch_id = $1 AND f.status = 'sending' AND n.id = f.id AND n.status IN ('sent', 'failed')
       RETURNING f.id, f.status
     )
     SELECT COALESCE(s.status, f.status) AS status, count(*)::int AS n
       FROM push_trigger_firings f LEFT JOIN settled s ON s.id = f.id
      WHERE f.batch_id = $1 GROUP BY 1`,
    [batchId],
  );
  const counts: TriggerBatchCounts = { sending: 0, sent: 0, failed: 0, skipped_disabled: 0, skipped_deleted: 0, skipped_device: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status] = r.n;
  return counts;
}
