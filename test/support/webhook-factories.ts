// Webhook rows for tests that need them fast, written through the repositories as the
// API and the fan-out write them: an endpoint with its sealed secret, pending deliveries
// to it, and delivery log rows (with their attempts) as the worker would have left them.
import type { Db } from '../../db/db';
import { deleteEndpoint, insertEndpoint as insertEndpointRow, updateEndpoint } from '../../db/repositories/webhook-endpoints';
import assert from 'node:assert/strict';
import {
  endpointsOfDeliveries,
  insertDeliveries as insertDeliveryRows,
  putLoggedDelivery,
  recordAttempt,
  type DeliveryStatus,
} from '../../db/repositories/webhook-deliveries';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { envelope } from '../../domain/webhooks/envelope';
import { masterKey } from '../../lib/crypto/master-key';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../lib/webhooks/signing';

/** An endpoint row as POST /v1/webhooks stores it, its secret sealed with `key` (default: the configured one). */
export async function insertEndpoint(
  db: Db,
  o: { workspaceId: string; url: string; events: string[]; active?: boolean; testMode?: boolean; key?: Buffer },
): Promise<{ id: string; secret: string }> {
  const id = newId('wh');
  const secret = newEndpointSecret();
  const secretBox = encryptSecret(o.key ?? masterKey(loadConfig()), secret, id);
  const { workspaceId, url, events, testMode } = o;
  await insertEndpointRow(db, { id, workspaceId, url, events, description: '', active: o.active ?? true, testMode, secretBox }, Infinity);
  return { id, secret };
}

/** Pauses (false) or resumes (true) the endpoint, as PATCH /v1/webhooks/{id} does. */
export async function setEndpointActive(db: Db, endpointId: string, active: boolean): Promise<void> {
  assert.ok(await updateEndpoint(db, endpointId, { active }), `no live endpoint ${endpointId}`);
}

/** Pauses the endpoint a delivery goes to. */
export async function pauseEndpointOf(db: Db, deliveryId: string): Promise<void> {
  const [endpointId] = await endpointsOfDeliveries(db, [deliveryId]);
  assert.ok(endpointId, `no delivery ${deliveryId}`);
  await setEndpointActive(db, endpointId, false);
}

/** Deletes the endpoint (soft, as DELETE /v1/webhooks/{id} does): nothing is delivered to it any more. */
export async function removeEndpoint(db: Db, endpointId: string): Promise<void> {
  await deleteEndpoint(db, endpointId);
}

/** An endpoint subscribed to ticket.created (secret sealed with `key`), and one pending delivery to it. */
export async function createDelivery(db: Db, key: Buffer, workspaceId: string, url: string) {
  const { id: endpointId, secret } = await insertEndpoint(db, { workspaceId, url, events: ['ticket.created'], key });
  const deliveryId = newId('evt');
  const body = JSON.stringify({ id: deliveryId, event: 'ticket.created', workspaceId, timestamp: new Date().toISOString(), data: { id: 'tkt_x' } });
  await insertDeliveryRows(db, [{ id: deliveryId, endpointId, eventId: newId('evt'), eventType: 'ticket.created', workspaceId, body, status: 'pending' }]);
  return { endpointId, deliveryId, secret, body };
}

export interface TicketCreatedEvent {
  eventId: string;
  /** one per endpoint, in the order of `endpointIds` */
  deliveries: { deliveryId: string; endpointId: string; body: string }[];
}

/** The rows the fan-out writes for `count` ticket.created events and the endpoints given (no `events` rows: no dispatcher sees them). */
export async function insertTicketCreatedDeliveries(db: Db, o: { workspaceId: string; endpointIds: string[]; count: number }): Promise<TicketCreatedEvent[]> {
  const events = Array.from({ length: o.count }, (_, n) => ({
    eventId: newId('evt'),
    deliveries: o.endpointIds.map((endpointId) => {
      const deliveryId = newId('evt');
      const data = { id: `tkt_crash_${n}`, title: `Crash test ${n}` };
      return { deliveryId, endpointId, body: envelope(deliveryId, { type: 'ticket.created', workspaceId: o.workspaceId, occurredAt: new Date(), data }) };
    }),
  }));
  await insertDeliveryRows(
    db,
    events.flatMap((e) =>
      e.deliveries.map((d) => ({ id: d.deliveryId, endpointId: d.endpointId, eventId: e.eventId, eventType: 'ticket.created', workspaceId: o.workspaceId, body: d.body, status: 'pending' as const })),
    ),
  );
  return events;
}

/**
 * A ticket.created delivery row of the log as the worker would have left it (default:
 * failed, no attempts, created now, completed now unless pending), its body an envelope of
 * `data` (default `{ id: 'tkt_x' }`). With `eventId` given, a row that the dispatcher
 * already wrote for that event and endpoint is taken over (its body and status). Answers
 * the row's id.
 */
export async function insertLoggedDelivery(
  db: Db,
  o: {
    endpointId: string;
    workspaceId: string;
    eventId?: string;
    data?: unknown;
    status?: DeliveryStatus;
    attempts?: number;
    createdAt?: Date;
    completedAt?: Date | null;
  },
): Promise<string> {
  const id = newId('evt');
  const status = o.status ?? 'failed';
  const body = envelope(id, { type: 'ticket.created', workspaceId: o.workspaceId, occurredAt: new Date(), data: o.data ?? { id: 'tkt_x' } });
  return putLoggedDelivery(db, {
    id,
    endpointId: o.endpointId,
    eventId: o.eventId ?? newId('evt'),
    eventType: 'ticket.created',
    workspaceId: o.workspaceId,
    body,
    status,
    attempts: o.attempts ?? 0,
    createdAt: o.createdAt ?? new Date(),
    completedAt: o.completedAt === undefined ? (status === 'pending' ? null : new Date()) : o.completedAt,
  });
}

/** An attempt's record in the delivery log, made now; the delivery keeps its status (its attempts counter grows to `attempt`). */
export async function insertAttempt(db: Db, deliveryId: string, a: { attempt: number; statusCode: number | null; latencyMs: number; error: string | null }) {
  const now = new Date();
  await recordAttempt(db, { deliveryId, ...a, ends: false, outcome: 'failed', scheduledAt: now, startedAt: now });
}
