// What the fault run's platform receiver got, against the events outbox and the delivery
// log (test/faults/dependencies-killed.test.ts). Pure over what the test read.
//
// Each platform event (ticket.created, ticket.updated, ticket.resolved, ticket.closed) has
// one delivery per subscribed endpoint: a `webhook_deliveries` row whose `evt_…` id is the
// envelope's `id` (and the `webhook-id` header when the API sends the Standard Webhooks
// headers), the same on every attempt, with the same bytes. A request repeated after a
// fault is the same delivery again (at least once); a second delivery id for one event,
// an event without a received delivery, or a repeat with other bytes is a failure.
import type { Delivered } from './webhook-receiver';
import type { PlatformOp } from './platform-fault-load';
import { EVENT_OF_STEP } from './platform-fault-load';

export interface PlatformEventRow {
  id: string;
  type: string;
  subject_id: string;
}

export interface PlatformDeliveryRow {
  id: string;
  event_id: string;
  status: string;
  /** attempts the log counts for the delivery */
  attempts: number;
  /** its recorded attempts that failed (an error or a non-2xx) */
  failed_attempts: number;
}

export interface PlatformDeliveryCount {
  /** events with no delivery row, or whose delivery never reached the receiver */
  missing: string[];
  /** events with more than one delivery row for the endpoint */
  doubled: string[];
  /** requests whose id is no delivery of an event of the run */
  unknown: string[];
  /** a repeat with other bytes, an envelope whose id, type or ticket disagree with its row */
  inconsistent: string[];
  /** deliveries that are not `succeeded` on their first attempt alone: a fault counted as a failed attempt */
  burned: string[];
  /** acknowledged client operations whose event (created, resolved, closed) the receiver has not got exactly once by delivery id */
  unacknowledged: string[];
  repeats: number;
  /** delivery id → its requests, for those received more than once */
  repeated: Map<string, Delivered[]>;
}

export function countPlatformDeliveries(accepted: Delivered[], events: PlatformEventRow[], deliveries: PlatformDeliveryRow[], ops: PlatformOp[]): PlatformDeliveryCount {
  const requestsOf = new Map<string, Delivered[]>();
  for (const d of accepted) requestsOf.set(d.id, [...(requestsOf.get(d.id) ?? []), d]);
  const eventById = new Map(events.map((e) => [e.id, e]));
  const rowsOfEvent = new Map<string, PlatformDeliveryRow[]>();
  for (const r of deliveries) rowsOfEvent.set(r.event_id, [...(rowsOfEvent.get(r.event_id) ?? []), r]);
  const rowById = new Map(deliveries.map((r) => [r.id, r]));

  const missing = events.filter((e) => !(rowsOfEvent.get(e.id) ?? []).some((r) => requestsOf.has(r.id))).map((e) => `${e.type} ${e.subject_id} (${e.id})`);
  const doubled = events.filter((e) => (rowsOfEvent.get(e.id)?.length ?? 0) > 1).map((e) => `${e.type} ${e.subject_id}: ${rowsOfEvent.get(e.id)!.map((r) => r.id)}`);
  const unknown: string[] = [];
  const inconsistent: string[] = [];
  for (const [id, requests] of requestsOf) {
    const row = rowById.get(id);
    const event = row && eventById.get(row.event_id);
    if (!row || !event) {
      unknown.push(id);
      continue;
    }
    for (const d of requests) {
      if (d.raw !== requests[0].raw) inconsistent.push(`${id}: a repeat with other bytes`);
      if (d.envelope?.id !== id) inconsistent.push(`${id}: envelope id ${d.envelope?.id}`);
      if (d.headers['webhook-id'] !== undefined && d.headers['webhook-id'] !== id) inconsistent.push(`${id}: webhook-id ${d.headers['webhook-id']}`);
      if (d.envelope?.type !== event.type || d.envelope?.data?.id !== event.subject_id) inconsistent.push(`${id}: ${d.envelope?.type} of ${d.envelope?.data?.id}, the row's event is ${event.type} of ${event.subject_id}`);
    }
  }
  const burned = deliveries.filter((r) => r.status !== 'succeeded' || r.attempts !== 1 || r.failed_attempts !== 0).map((r) => `${r.id}: ${r.status} after ${r.attempts} attempts, ${r.failed_attempts} failed`);

  // from the client's side: what it was told happened reached the receiver, once
  const receivedIds = new Map<string, Set<string>>();
  for (const d of accepted) {
    const k = `${d.envelope?.type} ${d.envelope?.data?.id}`;
    receivedIds.set(k, (receivedIds.get(k) ?? new Set()).add(d.id));
  }
  const unacknowledged = ops
    .filter((op) => op.answer && op.ticketId)
    .map((op) => `${EVENT_OF_STEP[op.step]} ${op.ticketId}`)
    .filter((k) => receivedIds.get(k)?.size !== 1);

  const repeated = new Map([...requestsOf].filter(([, rs]) => rs.length > 1));
  return {
    missing,
    doubled,
    unknown,
    inconsistent,
    burned,
    unacknowledged,
    repeats: [...repeated.values()].reduce((n, rs) => n + rs.length - 1, 0),
    repeated,
  };
}

/**
 * The run's platform events of the types the endpoint takes (of `workspaceId`: other types,
 * an SLA breach or an automation's, go to no endpoint of the run) and the delivery log of
 * `endpointId`, as countPlatformDeliveries reads them.
 */
export async function readPlatformDeliveryLog(
  db: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> },
  workspaceId: string,
  endpoint: { id: string; events: string[] },
): Promise<{ events: PlatformEventRow[]; deliveries: PlatformDeliveryRow[] }> {
  const events = (await db.query(`SELECT id, type, subject_id FROM events WHERE api = 'platform' AND workspace_id = $1 AND type = ANY($2::text[])`, [workspaceId, endpoint.events])).rows;
  const deliveries = (
    await db.query(
      `SELECT d.id, d.event_id, d.status, d.attempts,
              (SELECT count(*)::int FROM webhook_attempts a
                WHERE a.delivery_id = d.id AND (a.error IS NOT NULL OR a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)) AS failed_attempts
         FROM webhook_deliveries d WHERE d.endpoint_id = $1`,
      [endpoint.id],
    )
  ).rows;
  return { events, deliveries };
}
