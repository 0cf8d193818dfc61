// What the fault run (test/faults/dependencies-killed.test.ts) asserts of the platform API's
// side once its load has drained: every change a client was told happened is there, and
// every platform event (ticket.created, ticket.updated, ticket.resolved, ticket.closed)
// reached the platform endpoint at least once under one delivery id, on its first attempt:
// no fault of ours counted as a failed attempt, so none moved the endpoint towards its pause.
import assert from 'node:assert/strict';
import type { Db } from '../../db/db';
import { failuresOf } from './careful-client';
import { repeatsByFault } from './fault-deliveries';
import { countPlatformDeliveries, readPlatformDeliveryLog } from './platform-fault-deliveries';
import type { PlatformOp } from './platform-fault-load';
import type { Receiver } from './webhook-receiver';

export interface PlatformSide {
  workspaceId: string;
  endpointId: string;
  /** the endpoint's event types */
  events: string[];
  receiver: Receiver;
  ops: PlatformOp[];
  clients: number;
  killedAt: Array<{ fault: string; at: number }>;
}

export async function assertPlatformSide(db: Db, p: PlatformSide): Promise<void> {
  const { ops } = p;
  assert.ok(ops.length > 0 && ops.every((op) => op.answer), 'every platform operation answered');
  for (const f of failuresOf(ops)) {
    assert.ok(f.status === 503 || f.status === 409 || f.status === 'network', `a platform failure answered ${f.status}`);
    if (f.status === 503) assert.ok(f.envelope && f.retryAfter, 'a platform 503 without the envelope or Retry-After');
    assert.notEqual(f.status, 'timeout', 'a platform request not answered within 10 s');
  }
  const tickets = (await db.query(`SELECT id, status FROM platform_tickets WHERE workspace_id = $1`, [p.workspaceId])).rows;
  const created = ops.filter((op) => op.step === 'create');
  assert.deepEqual(tickets.map((r) => r.id).sort(), created.map((op) => op.ticketId).sort(), 'one platform ticket per acknowledged create');
  for (const r of tickets) assert.equal(r.status, 'closed', `${r.id} is ${r.status}`);
  const log = await readPlatformDeliveryLog(db, p.workspaceId, { id: p.endpointId, events: p.events });
  const count = countPlatformDeliveries(p.receiver.accepted, log.events, log.deliveries, ops);
  assert.deepEqual(p.receiver.rejected.map((d) => d.id), [], 'platform requests that failed verification');
  assert.deepEqual(count.missing, [], 'platform events without a received delivery');
  assert.deepEqual(count.doubled, [], 'platform events with two deliveries');
  assert.deepEqual(count.unknown, [], 'received ids that are no delivery of a platform event');
  assert.deepEqual(count.inconsistent, []);
  assert.deepEqual(count.unacknowledged, [], 'acknowledged platform changes whose event was not received once');
  assert.deepEqual(count.burned, [], 'platform deliveries that took more than their first attempt');
  const endpoint = (await db.query(`SELECT active, paused_reason FROM webhook_endpoints WHERE id = $1`, [p.endpointId])).rows[0];
  assert.deepEqual([endpoint.active, endpoint.paused_reason], [true, null], 'the platform endpoint stayed active');
  const byType: Record<string, number> = {};
  for (const e of log.events) byType[e.type] = (byType[e.type] ?? 0) + 1;
  const failures = failuresOf(ops);
  console.log(
    `platform: ${created.length} tickets created, resolved and closed by ${p.clients} clients, ${failures.length} failed attempts ` +
      `(${failures.filter((f) => f.status === 503).length} × 503); ${log.events.length} events ${JSON.stringify(byType)}, each received under one delivery id; ` +
      `${count.repeats} repeated requests of ${count.repeated.size} deliveries, by the fault before them: ${JSON.stringify(repeatsByFault(count.repeated, p.killedAt))}`,
  );
}
