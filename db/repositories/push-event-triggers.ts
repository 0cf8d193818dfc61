// push_event_triggers and push_trigger_firings (docs/push.md, "Event triggers"). A fire
// reads the app's enabled triggers of the event and the device's existence in one
// statement (fireCandidates), then its transaction writes one firing per matched trigger
// in one statement (insertFirings) beside their workflow starts. The firing workflow's
// activity locks its firing, checks the trigger, and binds the firing to the send it
// created (so a retried activity reuses that send).
import { sql, type Executor } from '../db';
import type { EventTriggerRecord, FiringStatus, TriggerCondition } from '../../domain/push/types';

const COLUMNS = `id, app_id AS "appId", name, event_name AS "eventName", delay_minutes AS "delayMinutes", conditions,
  title, body, enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;

export interface NewEventTrigger {
  id: string;
  appId: string;
  name: string;
  eventName: string;
  delayMinutes: number;
  conditions: TriggerCondition[];
  title: string;
  body: string;
  enabled: boolean;
}

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

/** The firings of one fire, in one statement (inside the fire's transaction). */
export async function insertFirings(ex: Executor, fire: { fireId: string; appId: string; deviceId: string }, firings: NewFiring[]): Promise<void> {
  if (!firings.length) return;
  await sql(
    ex,
    `INSERT INTO push_trigger_firings (id, fire_id, app_id, trigger_id, device_id, title, body, send_at)
     SELECT f.id, $1, $2, f.trigger_id, $3, f.title, f.body, f.send_at
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
    ],
  );
}

/** How many firings a fire made (an Idempotency-Key retry answers it again). */
export async function countFiringsOf(ex: Executor, fireId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_trigger_firings WHERE fire_id = $1`, [fireId]);
  return rows[0].n;
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
 * The firing, locked for the caller's transaction, with its trigger's state and its
 * device's now (one statement); null: gone with its app.
 */
export async function lockDueFiring(ex: Executor, firingId: string): Promise<DueFiring | null> {
  const { rows } = await sql<DueFiring>(
    ex,
    `SELECT f.id, f.app_id AS "appId", f.device_id AS "deviceId", f.title, f.body, f.status, f.send_id AS "sendId",
            t.enabled AS "triggerEnabled", CASE WHEN d.is_active THEN d.platform END AS "sendablePlatform"
       FROM push_trigger_firings f
       LEFT JOIN push_event_triggers t ON t.id = f.trigger_id
       LEFT JOIN push_devices d ON d.id = f.device_id AND d.app_id = f.app_id
      WHERE f.id = $1
        FOR UPDATE OF f`,
    [firingId],
  );
  return rows[0] ?? null;
}

/** Records what became of a firing (and its send, when it has one). */
export async function setFiringStatus(ex: Executor, firingId: string, status: FiringStatus, sendId?: string): Promise<void> {
  await sql(
    ex,
    `UPDATE push_trigger_firings SET status = $2, send_id = COALESCE($3, send_id),
            finished_at = CASE WHEN $2 IN ('pending', 'sending') THEN NULL ELSE now() END
      WHERE id = $1`,
    [firingId, status, sendId ?? null],
  );
}

/**
 * After its push: the firing takes its notification's outcome (`sent` or `failed`), in
 * one statement. Null: no recorded outcome (the send went with its app).
 */
export async function settleFiring(ex: Executor, firingId: string, sendId: string): Promise<'sent' | 'failed' | null> {
  const { rows } = await sql<{ status: 'sent' | 'failed' }>(
    ex,
    `UPDATE push_trigger_firings f SET status = n.status, finished_at = now()
       FROM push_notifications n
      WHERE f.id = $1 AND n.send_id = $2 AND n.status IN ('sent', 'failed')
      RETURNING f.status`,
    [firingId, sendId],
  );
  return rows[0]?.status ?? null;
}
