// SLA breaches of the platform ticket workflow on the time-skipping server, with its real
// activities over the test database (docs/platform.md, "SLA breaches"): a breach at its
// exact deadline (nothing a second before), a reply in time and a resolve in time that
// prevent theirs, a priority change that moves the deadline, a soft delete that holds the
// breach until the restore, and one event per policy even when the breach's answer is lost
// and the activity retried. Default policies: critical 1 h first response, 8 h resolution;
// high 4 h and 24 h.
import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import { createPlatformTicketActivities } from '../../activities/platform/tickets';
import { findPlatformTicketSla } from '../../db/repositories/platform-ticket-sla';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import { readPlatformTicketSla } from '../../domain/platform/ticket-sla';
import { PlatformFirstResponseBackfill1732240000030 } from '../../db/migrations/1732240000030-PlatformFirstResponseBackfill';
import type { PlatformTicketPriority } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  replyTicketUpdate,
  restoreTicketUpdate,
  type PlatformTicketActivities,
} from '../../workflows/platform-ticket/contract';
import { eventually } from '../support/eventually';
import { platformTicketSuite } from '../support/platform-ticket-suite';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** tickets whose first breach answer is lost after it committed (the activity is retried) */
const loseFirstBreachAnswer = new Set<string>();
let breachCalls = 0;

const suite = platformTicketSuite('platform-ticket-sla-test', {
  tenantName: 'SLA',
  activities: (db) => {
    const real = createPlatformTicketActivities({ db });
    return {
      async breachPlatformTicketSla(req: Parameters<PlatformTicketActivities['breachPlatformTicketSla']>[0]) {
        breachCalls++;
        const result = await real.breachPlatformTicketSla(req);
        if (loseFirstBreachAnswer.delete(req.ticketId)) throw new Error('the answer was lost after the commit');
        return result;
      },
    };
  },
});
/** A stored ticket (as the API writes it) and its running workflow; `createdAt` in ms. */
const ticket = (priority: PlatformTicketPriority = 'critical') => suite.ticket({ subject: 'Account locked', body: 'Help', priority });

const sleepUntil = async (at: number) => suite.env.sleep(Math.max(at - (await suite.env.currentTimeMs()), 0));
const iso = (ms: number) => new Date(ms).toISOString();

interface BreachEvent {
  data: { ticket_id: string; policy: string; priority: string; due_at: string; breached_at: string; ticket: { id: string; priority: string } };
  occurred_at: Date;
  api: string;
}
async function breachEvents(ticketId: string): Promise<BreachEvent[]> {
  const { rows } = await suite.db.query(`SELECT data, occurred_at, api FROM events WHERE subject_id = $1 AND type = 'ticket.sla_breached' ORDER BY occurred_at`, [ticketId]);
  return rows as BreachEvent[];
}
const slaRow = async (ticketId: string) => (await findPlatformTicketSla(suite.db, ticketId))!;

/**
 * Nothing recorded: the event and column are absent. After a deadline has gone by, the
 * worker is first given a moment to run anything due (`settle`); a second before one,
 * nothing can be due yet, and the check runs at once (the server's clock moves in real time
 * between two skips, so a pause would eat into that second).
 */
async function assertNoBreach(ticketId: string, policy: 'first_response' | 'resolution', settle = true) {
  if (settle) await pause(300);
  assert.deepEqual((await breachEvents(ticketId)).filter((e) => e.data.policy === policy), []);
  const row = await slaRow(ticketId);
  assert.equal(policy === 'first_response' ? row.firstResponseBreachedAt : row.resolutionBreachedAt, null);
}

const breached = (ticketId: string, policy: 'first_response' | 'resolution') =>
  eventually(async () => (await breachEvents(ticketId)).find((e) => e.data.policy === policy), { what: `${policy} breach of ${ticketId}` });

test('the first-response breach fires at its exact deadline, not a second before, and the resolution one at its own', async () => {
  const t = await ticket('critical');
  const due = t.createdAt + 1 * HOUR;
  await sleepUntil(due - SECOND);
  await assertNoBreach(t.ticketId, 'first_response', false);
  await sleepUntil(due);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.api, 'platform');
  assert.equal(event.data.ticket_id, t.ticketId);
  assert.equal(event.data.priority, 'critical');
  assert.equal(event.data.due_at, iso(due));
  assert.equal(event.data.breached_at, iso(due));
  assert.equal(event.data.ticket.id, t.ticketId);
  assert.equal((await slaRow(t.ticketId)).firstResponseBreachedAt?.toISOString(), iso(due));
  // the resolution policy is its own: 8 h, once
  await sleepUntil(t.createdAt + 8 * HOUR - SECOND);
  await assertNoBreach(t.ticketId, 'resolution', false);
  await sleepUntil(t.createdAt + 8 * HOUR);
  await breached(t.ticketId, 'resolution');
  assert.equal((await slaRow(t.ticketId)).resolutionBreachedAt?.toISOString(), iso(t.createdAt + 8 * HOUR));
  await sleepUntil(t.createdAt + 48 * HOUR);
  assert.equal((await breachEvents(t.ticketId)).length, 2, 'one event per policy');
});

test('a reply in time meets the first response (first_response_at set): no breach at or after the deadline', async () => {
  const t = await ticket('critical');
  await sleepUntil(t.createdAt + 59 * MINUTE);
  const replyId = await draftPlatformReply(suite.db, t.ticketId, suite.tenant.agentUserId, 'On it');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  const answered = (await slaRow(t.ticketId)).firstResponseAt;
  assert.ok(answered, 'first_response_at is set by the first reply');
  const second = await draftPlatformReply(suite.db, t.ticketId, suite.tenant.agentUserId, 'Still on it');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: second }] });
  assert.equal((await slaRow(t.ticketId)).firstResponseAt?.toISOString(), answered.toISOString(), 'a later reply keeps the first time');
  await sleepUntil(t.createdAt + 2 * HOUR);
  await assertNoBreach(t.ticketId, 'first_response');
});

test('resolving in time meets the resolution; reopened after the deadline, it breaches at once with the deadline as its time', async () => {
  const t = await ticket('critical');
  const replyId = await draftPlatformReply(suite.db, t.ticketId, suite.tenant.agentUserId, 'Looking');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  await sleepUntil(t.createdAt + 7 * HOUR);
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  await sleepUntil(t.createdAt + 9 * HOUR);
  await assertNoBreach(t.ticketId, 'resolution');
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'open' }] });
  const event = await breached(t.ticketId, 'resolution');
  assert.equal(event.data.due_at, iso(t.createdAt + 8 * HOUR));
  await assertNoBreach(t.ticketId, 'first_response');
});

test('a priority change recomputes the deadlines from created_at with the new priority', async () => {
  const t = await ticket('critical');
  await sleepUntil(t.createdAt + 30 * MINUTE);
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'high' }] });
  await sleepUntil(t.createdAt + 4 * HOUR - SECOND);
  await assertNoBreach(t.ticketId, 'first_response', false); // critical's 1 h has passed long ago: moved
  await sleepUntil(t.createdAt + 4 * HOUR);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.data.priority, 'high');
  assert.equal(event.data.due_at, iso(t.createdAt + 4 * HOUR));
  // at 10 h (high's resolution: 24 h) raised to critical, whose 8 h have gone by: the breach is at once, due at 8 h
  await sleepUntil(t.createdAt + 10 * HOUR);
  await assertNoBreach(t.ticketId, 'resolution');
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'critical' }] });
  const resolution = await breached(t.ticketId, 'resolution');
  assert.equal(resolution.data.due_at, iso(t.createdAt + 8 * HOUR));
  assert.equal(resolution.data.priority, 'critical');
});

test('no breach while soft-deleted; restored after the deadline, the breach is recorded then', async () => {
  const t = await ticket('critical');
  await t.handle.executeUpdate(deleteTicketUpdate);
  await sleepUntil(t.createdAt + 2 * HOUR);
  await assertNoBreach(t.ticketId, 'first_response');
  await t.handle.executeUpdate(restoreTicketUpdate);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.data.due_at, iso(t.createdAt + HOUR));
});

test('a breach whose answer is lost is retried and recorded once: one column value, one event per policy', async () => {
  const t = await ticket('critical');
  loseFirstBreachAnswer.add(t.ticketId);
  const before = breachCalls;
  await sleepUntil(t.createdAt + HOUR);
  await breached(t.ticketId, 'first_response');
  await eventually(() => !loseFirstBreachAnswer.has(t.ticketId) && breachCalls >= before + 2, { what: 'the retried breach' });
  await pause(300);
  assert.equal((await breachEvents(t.ticketId)).length, 1);
  assert.equal((await slaRow(t.ticketId)).firstResponseBreachedAt?.toISOString(), iso(t.createdAt + HOUR));
});

test('a reply published before first_response_at existed meets the first response: read as such, and backfilled by the migration', async () => {
  const t = await ticket('critical');
  const replyAt = t.createdAt + 10 * MINUTE;
  // what a worker of the code before the column left: a published reply, first_response_at null
  await suite.db.query(`INSERT INTO platform_ticket_replies (id, ticket_id, author_id, body, version, created_at) VALUES ($1, $2, $3, 'old', 2, $4)`, [
    newId('rpl'), t.ticketId, suite.tenant.agentUserId, new Date(replyAt),
  ]);
  const read = await readPlatformTicketSla(suite.db, t.ticketId);
  assert.ok(!('gone' in read) && read.firstResponded);
  assert.equal((await suite.db.query(`SELECT first_response_at FROM platform_tickets WHERE id = $1`, [t.ticketId])).rows[0].first_response_at, null);
  await new PlatformFirstResponseBackfill1732240000030().up({ query: (text: string) => suite.db.query(text) } as never);
  assert.equal((await slaRow(t.ticketId)).firstResponseAt?.toISOString(), iso(replyAt));
  await t.handle.terminate('done');
});
