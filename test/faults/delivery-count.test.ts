// The fault run's delivery count (test/support/fault-deliveries.ts) itself: it must see a
// doubled delivery, a missing one, a repeat with other bytes, and tell a repeat of the
// same delivery (allowed, counted) from a second delivery of the same ticket (a failure).
import assert from 'node:assert/strict';
import { countDeliveries, repeatsByFault } from '../support/fault-deliveries';
import type { Delivered } from '../support/webhook-receiver';

function request(id: string, ticketId: string, receivedAt: number, extra: Record<string, unknown> = {}): Delivered {
  const envelope = { id, event: 'ticket.created', workspaceId: 'ws_1', timestamp: '2026-11-23T20:00:00.000Z', data: { id: ticketId }, ...extra };
  return { id, headers: {}, raw: JSON.stringify(envelope), envelope, receivedAt };
}

test('one delivery id per ticket, repeats of it counted apart', () => {
  const c = countDeliveries([request('evt_a', 'tkt_1', 1000), request('evt_b', 'tkt_2', 1100), request('evt_a', 'tkt_1', 5000)], ['tkt_1', 'tkt_2']);
  assert.deepEqual(c.missing, []);
  assert.deepEqual(c.doubled, []);
  assert.deepEqual(c.inconsistent, []);
  assert.equal(c.repeats, 1);
  assert.deepEqual([...c.repeated.keys()], ['evt_a']);
  assert.deepEqual(Object.fromEntries(c.deliveryOf), { tkt_1: 'evt_a', tkt_2: 'evt_b' });
});

test('a second delivery id for a ticket is doubled, a ticket without one is missing', () => {
  const c = countDeliveries([request('evt_a', 'tkt_1', 1000), request('evt_c', 'tkt_1', 1200)], ['tkt_1', 'tkt_2']);
  assert.deepEqual(c.doubled, [{ ticketId: 'tkt_1', deliveryIds: ['evt_a', 'evt_c'] }]);
  assert.deepEqual(c.missing, ['tkt_2']);
  assert.equal(c.repeats, 0);
});

test('a repeat with other bytes, or an envelope id that is not the webhook-id, is inconsistent', () => {
  const other = request('evt_a', 'tkt_1', 2000, { timestamp: '2026-11-23T20:00:01.000Z' });
  const wrongId = { ...request('evt_b', 'tkt_2', 2100), envelope: { ...request('evt_b', 'tkt_2', 0).envelope, id: 'evt_x' } };
  const c = countDeliveries([request('evt_a', 'tkt_1', 1000), other, wrongId], ['tkt_1', 'tkt_2']);
  assert.equal(c.inconsistent.length, 2);
});

test('other event types are not counted', () => {
  const c = countDeliveries([request('evt_a', 'tkt_1', 1000, { event: 'ticket.resolved' })], ['tkt_1']);
  assert.deepEqual(c.missing, ['tkt_1']);
});

test('each repeat is put down to the first fault after its first request: the one that caught it in flight', () => {
  const c = countDeliveries(
    [request('evt_a', 'tkt_1', 1000), request('evt_a', 'tkt_1', 20_000), request('evt_b', 'tkt_2', 30_000), request('evt_b', 'tkt_2', 31_000)],
    ['tkt_1', 'tkt_2'],
  );
  const faults = [
    { fault: 'PostgreSQL', at: 1500 },
    { fault: 'Redis', at: 12_000 },
    { fault: 'Temporal', at: 25_000 },
  ];
  assert.deepEqual(repeatsByFault(c.repeated, faults), { PostgreSQL: 1, 'no fault': 1 });
});
