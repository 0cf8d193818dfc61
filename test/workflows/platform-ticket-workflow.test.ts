// The platform ticket workflow on the time-skipping server with its real activities over
// the test database: a soft-deleted ticket is restorable at 29 d 23 h and purged for good
// (replies with it) at 30 d by the run's durable timer; a deactivated user's unassignment
// applies once; a row that vanished with its workspace ends the run quietly.
import assert from 'node:assert/strict';
import { findPlatformTicket } from '../../db/repositories/platform-tickets';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  platformTicketStateQuery,
  replyTicketUpdate,
  restoreTicketUpdate,
  unassignUserUpdate,
} from '../../workflows/platform-ticket/contract';
import { platformTicketSuite, refusalCode } from '../support/platform-ticket-suite';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const suite = platformTicketSuite('platform-ticket-timers-test', { tenantName: 'Timers' });
const ticket = (assigneeId: string | null = null) => suite.ticket({ priority: 'high', assigneeId });

const sleepUntil = async (at: number) => suite.env.sleep(Math.max(at - (await suite.env.currentTimeMs()), 0));
const row = (id: string) => findPlatformTicket(suite.db, id);

test('a soft-deleted ticket: restorable at 29 d 23 h (and back to its status), gone for good at 30 d (replies with it)', async () => {
  const a = await ticket();
  await a.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] });
  await a.handle.executeUpdate(deleteTicketUpdate);
  const deletedA = (await row(a.ticketId))!;
  assert.ok(deletedA.deletedAt && deletedA.purgeAt);
  assert.equal(new Date(deletedA.purgeAt).getTime() - new Date(deletedA.deletedAt).getTime(), 30 * DAY);
  await sleepUntil(new Date(deletedA.purgeAt).getTime() - HOUR);
  const restored = await a.handle.executeUpdate(restoreTicketUpdate);
  assert.equal(restored.status, 'pending');
  const back = (await row(a.ticketId))!;
  assert.equal(back.deletedAt, null);
  assert.equal(back.purgeAt, null);
  // the cancelled timer purges nothing
  await suite.env.sleep(2 * HOUR);
  assert.ok(await row(a.ticketId), 'a restored ticket stays');
  assert.equal((await a.handle.query(platformTicketStateQuery)).deleted, false);

  const b = await ticket();
  const replyId = await draftPlatformReply(suite.db, b.ticketId, suite.tenant.agentUserId, 'a reply that goes with it');
  await b.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  await b.handle.executeUpdate(deleteTicketUpdate);
  const purgeAt = new Date((await row(b.ticketId))!.purgeAt!).getTime();
  await sleepUntil(purgeAt - 60_000);
  assert.ok(await row(b.ticketId), 'still there a minute before');
  assert.equal(await refusalCode(b.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'low' }] })), 'not_found', 'hidden while deleted');
  await sleepUntil(purgeAt);
  assert.equal(await b.handle.result(), 'purged');
  assert.equal(await row(b.ticketId), null);
  const { rows } = await suite.db.query(`SELECT count(*)::int AS n FROM platform_ticket_replies WHERE ticket_id = $1`, [b.ticketId]);
  assert.equal(rows[0].n, 0);
});

test('restore at 30 d is 410 gone (the validator, even before the purge step has run)', async () => {
  const c = await ticket();
  await c.handle.executeUpdate(deleteTicketUpdate);
  // the timer fires at purge_at; a restore racing it at that instant is refused as gone
  const state = await c.handle.query(platformTicketStateQuery);
  assert.equal(state.deleted, true);
  await sleepUntil(Date.parse(state.purgeAt!));
  const code = String(await refusalCode(c.handle.executeUpdate(restoreTicketUpdate)).catch((err) => String(err)));
  // either the run took the restore's validation at purge_at (gone) or it had already ended
  assert.ok(code === 'gone' || /not found|completed/i.test(code), code);
  assert.equal(await c.handle.result(), 'purged');
});

test("a deactivated user's unassignment: once while open or pending, never twice, never on a resolved ticket", async () => {
  const d = await ticket(suite.tenant.agentUserId);
  const first = await d.handle.executeUpdate(unassignUserUpdate, { args: [{ userId: suite.tenant.agentUserId }] });
  assert.equal(first.changed, true);
  assert.equal((await row(d.ticketId))!.assigneeId, null);
  const again = await d.handle.executeUpdate(unassignUserUpdate, { args: [{ userId: suite.tenant.agentUserId }] });
  assert.equal(again.changed, false);
  assert.equal(again.version, first.version);

  const e = await ticket(suite.tenant.agentUserId);
  await e.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  assert.equal((await e.handle.executeUpdate(unassignUserUpdate, { args: [{ userId: suite.tenant.agentUserId }] })).changed, false);
  assert.equal((await row(e.ticketId))!.assigneeId, suite.tenant.agentUserId);
});

test('a row that vanished (its workspace purged) ends the run quietly at the next change', async () => {
  const f = await ticket();
  await suite.db.query(`DELETE FROM platform_tickets WHERE id = $1`, [f.ticketId]);
  assert.equal(await refusalCode(f.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'low' }] })), 'not_found');
  assert.equal(await f.handle.result(), 'purged');
});

test('closed ends the run; the transitions a closed ticket refuses are refused by its validator first', async () => {
  const g = await ticket();
  assert.equal(await refusalCode(g.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] })), 'accepted');
  assert.equal(await g.handle.result(), 'closed');
  const h = await ticket();
  await h.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  assert.equal(await refusalCode(h.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] })), 'conflict');
});
