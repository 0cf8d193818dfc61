// The fault run's platform delivery count (test/support/platform-fault-deliveries.ts) itself:
// it must see an event never received, an event with two delivery rows, a repeat with other
// bytes or the wrong event, an id the log does not have, a delivery that needed a second
// attempt (a fault burning the schedule), and an acknowledged change whose event did not
// arrive once; and it must accept a repeat of the same delivery.
import assert from 'node:assert/strict';
import { countPlatformDeliveries, type PlatformDeliveryRow, type PlatformEventRow } from '../support/platform-fault-deliveries';
import type { PlatformOp } from '../support/platform-fault-load';
import type { Delivered } from '../support/webhook-receiver';

const at = '2026-11-27T12:00:00.000Z';

function request(id: string, type: string, ticketId: string, extra: Record<string, unknown> = {}): Delivered {
  const envelope = { id, type, workspace_id: 'ws_1', created_at: at, data: { id: ticketId, updated_at: at }, ...extra };
  return { id, headers: {}, raw: JSON.stringify(envelope), envelope, receivedAt: 0 };
}

const event = (id: string, type: string, subject: string): PlatformEventRow => ({ id, type, subject_id: subject });
const row = (id: string, eventId: string, o: Partial<PlatformDeliveryRow> = {}): PlatformDeliveryRow => ({ id, event_id: eventId, status: 'succeeded', attempts: 1, failed_attempts: 0, ...o });
const op = (step: PlatformOp['step'], ticketId: string): PlatformOp => ({ step, ticketId, path: '', key: '', body: {}, attempts: [], answer: {} });

const events = [event('e1', 'ticket.created', 'tkt_1'), event('e2', 'ticket.updated', 'tkt_1'), event('e3', 'ticket.resolved', 'tkt_1')];
const rows = [row('evt_1', 'e1'), row('evt_2', 'e2'), row('evt_3', 'e3')];
const all = [request('evt_1', 'ticket.created', 'tkt_1'), request('evt_2', 'ticket.updated', 'tkt_1'), request('evt_3', 'ticket.resolved', 'tkt_1')];

test('every event received once by id, a repeat of the same delivery counted apart: nothing to report', () => {
  const c = countPlatformDeliveries([...all, request('evt_2', 'ticket.updated', 'tkt_1')], events, rows, [op('create', 'tkt_1'), op('resolve', 'tkt_1')]);
  assert.deepEqual([c.missing, c.doubled, c.unknown, c.inconsistent, c.burned, c.unacknowledged], [[], [], [], [], [], []]);
  assert.equal(c.repeats, 1);
  assert.deepEqual([...c.repeated.keys()], ['evt_2']);
});

test('an event whose delivery never arrived is missing, and so is the acknowledged change behind it', () => {
  const c = countPlatformDeliveries(all.slice(0, 2), events, rows, [op('create', 'tkt_1'), op('resolve', 'tkt_1')]);
  assert.deepEqual(c.missing, ['ticket.resolved tkt_1 (e3)']);
  assert.deepEqual(c.unacknowledged, ['ticket.resolved tkt_1']);
});

test('two delivery rows for one event are doubled; an id the log does not have is unknown', () => {
  const c = countPlatformDeliveries([...all, request('evt_9', 'ticket.created', 'tkt_1')], events, [...rows, row('evt_4', 'e1')], []);
  assert.equal(c.doubled.length, 1);
  assert.deepEqual(c.unknown, ['evt_9']);
});

test('a repeat with other bytes, a wrong envelope id or webhook-id, or another event under the id is inconsistent', () => {
  const otherBytes = request('evt_1', 'ticket.created', 'tkt_1', { created_at: '2026-11-27T12:00:01.000Z' });
  const wrongType = request('evt_2', 'ticket.closed', 'tkt_1');
  const wrongHeader = { ...request('evt_3', 'ticket.resolved', 'tkt_1'), headers: { 'webhook-id': 'evt_x' } };
  const c = countPlatformDeliveries([...all, otherBytes, wrongType, wrongHeader], events, rows, []);
  assert.ok(c.inconsistent.some((x) => x.startsWith('evt_1: a repeat with other bytes')));
  assert.ok(c.inconsistent.some((x) => x.startsWith('evt_2:') && x.includes('ticket.closed')));
  assert.ok(c.inconsistent.some((x) => x === 'evt_3: webhook-id evt_x'));
});

test('a delivery that took a second attempt, or has a failed one recorded, burned the schedule', () => {
  const c = countPlatformDeliveries(all, events, [row('evt_1', 'e1', { attempts: 2 }), row('evt_2', 'e2', { failed_attempts: 1 }), row('evt_3', 'e3', { status: 'pending' })], []);
  assert.equal(c.burned.length, 3);
});

test('an acknowledged close whose ticket.closed arrived under two ids is not acknowledged once', () => {
  const closes = [request('evt_5', 'ticket.closed', 'tkt_1'), request('evt_6', 'ticket.closed', 'tkt_1')];
  const c = countPlatformDeliveries([...all, ...closes], events, rows, [op('close', 'tkt_1')]);
  assert.deepEqual(c.unacknowledged, ['ticket.closed tkt_1']);
});
