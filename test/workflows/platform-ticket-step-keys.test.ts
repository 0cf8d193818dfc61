// A lost workflow task, reproduced without killing anything (docs/platform.md, "Step
// keys"): its change A was committed by its local activity (here: stored directly through
// the domain function as the next step, under A's step key `update:upd-a`) but never
// reached the history; the run then takes Update B first. B meets A's number `taken`,
// takes the row's facts, is checked again and lands as the step after A with its own
// effect, or gets the refusal it would have had after A. A, sent again under its Update
// id, is answered as stored: applied and recorded once. A deactivation's unassignUser meets
// it the same way, and a priority A raised moves the SLA deadlines once B has met it. On the
// time-skipping server with the real activities over the test database.
import assert from 'node:assert/strict';
import { findPlatformTicket } from '../../db/repositories/platform-tickets';
import { applyPlatformTicketChange } from '../../domain/platform/apply-ticket-change';
import { deleteTicketUpdate, patchTicketUpdate, platformTicketStateQuery, unassignUserUpdate, type PlatformTicketChange } from '../../workflows/platform-ticket/contract';
import { eventually } from '../support/eventually';
import { platformTicketSuite, refusalCode, type StartedTicket } from '../support/platform-ticket-suite';

const suite = platformTicketSuite('platform-ticket-step-keys-test', { tenantName: 'Step keys' });

/** A ticket whose run has passed its first task (its created round: the tenant has no rules). */
async function ticket(): Promise<StartedTicket> {
  const t = await suite.ticket();
  assert.equal((await t.handle.query(platformTicketStateQuery)).version, 1);
  return t;
}

/** What the lost task committed: A as step 2 under its Update's key. */
const lostStep = (ticketId: string, change: PlatformTicketChange) =>
  applyPlatformTicketChange(suite.db, { ticketId, version: 2, at: new Date().toISOString(), change, key: 'update:upd-a' });

const row = async (id: string) => (await findPlatformTicket(suite.db, id))!;
/** The ticket's events after its create: `type@step`, in step order. */
async function events(id: string): Promise<string[]> {
  const { rows } = await suite.db.query(`SELECT type, dedupe_key FROM events WHERE subject_id = $1 AND type <> 'ticket.created' ORDER BY dedupe_key`, [id]);
  return rows.map((r) => `${r.type}@${r.dedupe_key.split(':')[2]}`);
}
const log = async (id: string) =>
  (await suite.db.query(`SELECT version, step_key FROM platform_ticket_steps WHERE ticket_id = $1 ORDER BY version`, [id])).rows.map((r) => `${r.version} ${r.step_key}`);

test('B meets the lost step A: stored as the step after it with its own effect; A sent again is answered as stored, applied once', async () => {
  const t = await ticket();
  await lostStep(t.ticketId, { kind: 'patch', priority: 'high' });

  const b = await t.handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['b'] }], updateId: 'upd-b' });
  assert.deepEqual(b, { ticketId: t.ticketId, version: 3, status: 'open', changed: true });
  const after = await row(t.ticketId);
  assert.equal(after.version, 3);
  assert.equal(after.priority, 'high', "A's effect stays");
  assert.deepEqual(after.tags, ['b'], "B's own effect");

  const a = await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'high' }], updateId: 'upd-a' });
  assert.deepEqual(a, { ticketId: t.ticketId, version: 3, status: 'open', changed: true }, 'as stored: the version the ticket is at');
  assert.equal((await row(t.ticketId)).version, 3, 'A is not applied a second time');
  assert.deepEqual(await events(t.ticketId), ['ticket.updated@2', 'ticket.updated@3'], 'one set of events for A, one for B');
  assert.deepEqual(await log(t.ticketId), ['2 update:upd-a', '3 update:upd-b']);

  // the run numbers on from the row: the next change is step 4
  const next = await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] });
  assert.equal(next.version, 4);
});

test('B refused after the lost step A closed the ticket: the refusal it would have had in that order; the run ends closed', async () => {
  const t = await ticket();
  await lostStep(t.ticketId, { kind: 'patch', status: 'closed' });

  assert.equal(await refusalCode(t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'critical' }], updateId: 'upd-b' })), 'conflict');
  assert.equal(await t.handle.result(), 'closed');
  const r = await row(t.ticketId);
  assert.equal(r.priority, 'normal', 'nothing of B');
  assert.equal(r.version, 2);
  assert.deepEqual(await events(t.ticketId), ['ticket.closed@2', 'ticket.updated@2']);
  assert.deepEqual(await log(t.ticketId), ['2 update:upd-a']);
});

test('A sent again after B was refused by its effect (a soft delete): answered as stored, not refused by the state it made', async () => {
  const t = await ticket();
  await lostStep(t.ticketId, { kind: 'delete' });

  // a deleted ticket takes no patch: 404, as had A run first
  assert.equal(await refusalCode(t.handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['b'] }], updateId: 'upd-b' })), 'not_found');
  assert.equal((await t.handle.query(platformTicketStateQuery)).deleted, true);
  // the run's state would refuse a delete of a deleted ticket; the step log knows A made step 2
  const a = await t.handle.executeUpdate(deleteTicketUpdate, { updateId: 'upd-a' });
  assert.deepEqual(a, { ticketId: t.ticketId, version: 2, status: 'open', changed: true });
  assert.equal((await row(t.ticketId)).version, 2);
  assert.deepEqual(await events(t.ticketId), ['ticket.updated@2']);

  // a change that is not among the lost steps is still refused (now by the handler, after the log)
  assert.equal(await refusalCode(t.handle.executeUpdate(deleteTicketUpdate, { updateId: 'upd-c' })), 'not_found');
  assert.deepEqual(await log(t.ticketId), ['2 update:upd-a']);
});

test("the lost step A raised the priority: once B meets it, the SLA deadlines are read again and the breach comes at A's priority", async () => {
  const t = await suite.ticket({ priority: 'high' }); // default policies: high 4 h first response, critical 1 h
  assert.equal((await t.handle.query(platformTicketStateQuery)).version, 1); // its first wait has read high's deadlines
  await applyPlatformTicketChange(suite.db, { ticketId: t.ticketId, version: 2, at: new Date(t.createdAt).toISOString(), change: { kind: 'patch', priority: 'critical' }, key: 'update:upd-a' });
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['b'] }], updateId: 'upd-b' });

  const firstResponseDue = t.createdAt + 60 * 60 * 1000;
  await suite.env.sleep(Math.max(firstResponseDue - (await suite.env.currentTimeMs()), 0));
  const breach = await eventually(
    async () => (await suite.db.query(`SELECT data FROM events WHERE subject_id = $1 AND type = 'ticket.sla_breached'`, [t.ticketId])).rows[0]?.data,
    { what: "the first-response breach at critical's 1 h" },
  );
  assert.equal(breach.policy, 'first_response');
  assert.equal(breach.priority, 'critical');
  assert.equal(breach.due_at, new Date(firstResponseDue).toISOString());
});

test("a user's deactivation (unassignUser) meets the lost step A: unassigned after a tag, left as it is after a resolve", async () => {
  const userId = suite.tenant.agentUserId;
  const tagged = await suite.ticket({ assigneeId: userId });
  assert.equal((await tagged.handle.query(platformTicketStateQuery)).version, 1);
  await lostStep(tagged.ticketId, { kind: 'patch', tags: ['a'] });
  const b = await tagged.handle.executeUpdate(unassignUserUpdate, { args: [{ userId }], updateId: 'upd-b' });
  assert.deepEqual(b, { ticketId: tagged.ticketId, version: 3, status: 'open', changed: true });
  assert.deepEqual([(await row(tagged.ticketId)).assigneeId, (await row(tagged.ticketId)).tags], [null, ['a']]);
  assert.deepEqual(await log(tagged.ticketId), ['2 update:upd-a', '3 update:upd-b']);

  // a resolved ticket keeps its assignee (unassignUser's rule), as had A run first
  const resolved = await suite.ticket({ assigneeId: userId });
  assert.equal((await resolved.handle.query(platformTicketStateQuery)).version, 1);
  await lostStep(resolved.ticketId, { kind: 'patch', status: 'resolved' });
  const d = await resolved.handle.executeUpdate(unassignUserUpdate, { args: [{ userId }], updateId: 'upd-b' });
  assert.deepEqual(d, { ticketId: resolved.ticketId, version: 2, status: 'resolved', changed: false });
  assert.equal((await row(resolved.ticketId)).assigneeId, userId);
  assert.deepEqual(await log(resolved.ticketId), ['2 update:upd-a']);
});
