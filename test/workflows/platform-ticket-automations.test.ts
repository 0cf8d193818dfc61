// Platform automations run by the ticket workflow (workflows/platform-ticket/automations.ts)
// on the time-skipping server with the real activities over the test database: a
// `ticket.created` rule fires once at the start and sets off a `ticket.updated` rule; a
// `ticket.updated` rule fires after a PATCH and after a reply; two rules that would
// trigger each other fire once each; a rule whose actions change nothing does not fire; a
// rule's step re-run after a crash is neither lost nor applied twice.
import assert from 'node:assert/strict';
import { findPlatformTicket } from '../../db/repositories/platform-tickets';
import type { AutomationAction, AutomationCondition, AutomationTrigger } from '../../domain/platform/automation.rules';
import { applyPlatformTicketChange } from '../../domain/platform/apply-ticket-change';
import { createPlatformAutomation } from '../../domain/platform/create-automation';
import { createPlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformEnvironment } from '../../domain/platform/types';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import { newId } from '../../lib/ids';
import { patchTicketUpdate, replyTicketUpdate } from '../../workflows/platform-ticket/contract';
import { eventually } from '../support/eventually';
import { platformTicketSuite, tenantAdmin } from '../support/platform-ticket-suite';

const suite = platformTicketSuite('platform-ticket-automations-test', { tenantName: 'Automations' });

/** A tenant of its own per test: its rules act on its tickets only. */
async function workspace() {
  const tenant = await createPlatformTenant(suite.db, { name: `Automations ${process.pid} ${newId('req')}` });
  const rule = (name: string, trigger: AutomationTrigger, conditions: AutomationCondition[], actions: AutomationAction[]) =>
    createPlatformAutomation(suite.db, tenantAdmin(tenant), { automationId: newId('aut'), workspaceId: tenant.workspaceId, environment: 'test', name, trigger, conditions, actions, active: true, now: new Date() });
  /** A stored ticket (as the API writes it) and its running workflow. */
  const ticket = (subject: string, environment: PlatformEnvironment = 'test') => suite.ticket({ tenant, subject, body: 'text', environment });
  return { tenant, rule, ticket };
}

const row = async (id: string) => (await findPlatformTicket(suite.db, id))!;
/** The ticket's `automation.fired` events: [automation_id, trigger] in the order recorded. */
async function fired(ticketId: string): Promise<Array<[string, string]>> {
  const { rows } = await suite.db.query(`SELECT data FROM events WHERE subject_id = $1 AND type = 'automation.fired' ORDER BY occurred_at, id`, [ticketId]);
  return rows.map((r) => [r.data.automation_id, r.data.trigger]);
}
const updatedEvents = async (ticketId: string) =>
  (await suite.db.query(`SELECT count(*)::int AS n FROM events WHERE subject_id = $1 AND type = 'ticket.updated'`, [ticketId])).rows[0].n as number;

test('on create: a matching ticket.created rule fires once and sets off a ticket.updated rule; a rule that does not match stays quiet', async () => {
  const w = await workspace();
  const refund = await w.rule('Tag refunds', 'ticket.created', [{ field: 'subject', operator: 'contains', value: 'refund' }], [
    { type: 'add_tag', value: 'refund' },
    { type: 'assign', user_id: w.tenant.agentUserId },
  ]);
  const crash = await w.rule('Crashes', 'ticket.created', [{ field: 'subject', operator: 'contains', value: 'crash' }], [{ type: 'set_priority', value: 'low' }]);
  const escalate = await w.rule('Escalate refunds', 'ticket.updated', [{ field: 'tags', operator: 'contains', value: 'refund' }], [{ type: 'set_priority', value: 'high' }]);

  const t = await w.ticket('Refund please');
  const after = await eventually(async () => {
    const r = await row(t.ticketId);
    return r.priority === 'high' && r;
  }, { what: 'the escalation rule' });
  assert.deepEqual(after.tags, ['refund']);
  assert.equal(after.assigneeId, w.tenant.agentUserId);
  assert.equal(after.version, 3, 'one step per rule that fired');
  assert.deepEqual(await fired(t.ticketId), [[refund.id, 'ticket.created'], [escalate.id, 'ticket.updated']]);
  assert.equal(await updatedEvents(t.ticketId), 2);
  const { rows } = await suite.db.query(`SELECT data FROM events WHERE subject_id = $1 AND type = 'automation.fired' AND data->>'automation_id' = $2`, [t.ticketId, refund.id]);
  assert.deepEqual(rows[0].data, {
    automation_id: refund.id,
    ticket_id: t.ticketId,
    trigger: 'ticket.created',
    actions: [{ type: 'add_tag', value: 'refund' }, { type: 'assign', user_id: w.tenant.agentUserId }],
  });
  assert.ok(!(await fired(t.ticketId)).some(([id]) => id === crash.id));

  // a later change does not run the created rules again
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] });
  assert.deepEqual((await fired(t.ticketId)).length, 2, 'the escalation changes nothing any more: it does not fire');
});

test('on ticket.updated: a rule fires after a PATCH and after a reply, once each, and not when it would change nothing', async () => {
  const w = await workspace();
  const pending = await w.rule('Seen', 'ticket.updated', [{ field: 'status', operator: 'equals', value: 'pending' }], [{ type: 'add_tag', value: 'seen' }]);
  const replied = await w.rule('Answered', 'ticket.updated', [{ field: 'tags', operator: 'contains', value: 'seen' }, { field: 'priority', operator: 'not_equals', value: 'low' }], [
    { type: 'set_priority', value: 'low' },
  ]);
  const t = await w.ticket('Where is my item');
  // the PATCH waits for the lock the (empty) created round holds: no race with it
  const reply = await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] });
  // the Update answers after the rules ran (under the same lock): seen, then the rule it sets off
  const r = await row(t.ticketId);
  assert.deepEqual(r.tags, ['seen']);
  assert.equal(r.priority, 'low');
  assert.equal(reply.version, r.version);
  assert.deepEqual(await fired(t.ticketId), [[pending.id, 'ticket.updated'], [replied.id, 'ticket.updated']]);

  // a reply records ticket.updated: the rules are asked again, and neither changes anything now
  const replyId = await draftPlatformReply(suite.db, t.ticketId, w.tenant.agentUserId, 'on its way');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  assert.equal((await fired(t.ticketId)).length, 2);

  // raised again by a user: the second rule fires again for this new change, once
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'critical' }] });
  assert.equal((await row(t.ticketId)).priority, 'low');
  assert.deepEqual((await fired(t.ticketId)).map(([id]) => id), [pending.id, replied.id, replied.id]);
});

test('two rules that trigger each other fire once each per change (no loop)', async () => {
  const w = await workspace();
  const up = await w.rule('Up', 'ticket.updated', [{ field: 'priority', operator: 'equals', value: 'normal' }], [{ type: 'set_priority', value: 'high' }]);
  const down = await w.rule('Down', 'ticket.updated', [{ field: 'priority', operator: 'equals', value: 'high' }], [{ type: 'set_priority', value: 'normal' }]);
  const self = await w.rule('Self', 'ticket.updated', [], [{ type: 'add_tag', value: 'touched' }]);
  const t = await w.ticket('Ping pong');
  const before = (await row(t.ticketId)).version;
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['x'] }] });
  const r = await row(t.ticketId);
  // Up (normal → high) and Self (in their creation order, which ids within one millisecond
  // do not fix), then Down (high → normal) in the next round; Up and Self are not asked again
  const ids = (await fired(t.ticketId)).map(([id]) => id);
  assert.deepEqual([...ids.slice(0, 2)].sort(), [up.id, self.id].sort());
  assert.deepEqual(ids.slice(2), [down.id]);
  assert.equal(r.priority, 'normal');
  assert.deepEqual(r.tags, ['x', 'touched']);
  assert.equal(r.version, before + 4, 'the user change and three rule steps');
});

test('a rule that closes the ticket ends the run; a ticket of the other environment is not touched', async () => {
  const w = await workspace();
  const closer = await w.rule('Close spam', 'ticket.created', [{ field: 'subject', operator: 'contains', value: 'spam' }], [
    { type: 'add_tag', value: 'spam' },
    { type: 'set_status', value: 'closed' },
  ]);
  const t = await w.ticket('Buy spam now');
  assert.equal(await t.handle.result(), 'closed');
  const r = await row(t.ticketId);
  assert.equal(r.status, 'closed');
  assert.ok(r.closedAt);
  assert.deepEqual(await fired(t.ticketId), [[closer.id, 'ticket.created']]);
  const { rows } = await suite.db.query(`SELECT type FROM events WHERE subject_id = $1 ORDER BY occurred_at, id`, [t.ticketId]);
  assert.deepEqual(rows.map((e) => e.type).sort(), ['automation.fired', 'ticket.closed', 'ticket.created', 'ticket.updated']);

  // the same subject on a live ticket: the test rule does not see it
  const { ticketId: liveId, handle: live } = await w.ticket('Buy spam now', 'live');
  await live.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] }); // after the created round
  assert.equal((await row(liveId)).status, 'pending');
  assert.deepEqual(await fired(liveId), []);
});

test("a rule's step whose number another rule took (a workflow task re-run after a crash) is stored as the next step, once; a retry answers as stored", async () => {
  const w = await workspace();
  const x = await w.rule('X', 'ticket.updated', [], [{ type: 'add_tag', value: 'x' }]);
  const y = await w.rule('Y', 'ticket.updated', [], [{ type: 'add_tag', value: 'y' }]);
  const t = await w.ticket('Crash in between');
  await t.handle.terminate('the steps are applied by hand below');
  const step = (version: number, automationId: string) =>
    applyPlatformTicketChange(suite.db, { ticketId: t.ticketId, version, at: new Date().toISOString(), change: { kind: 'automation', automationId, trigger: 'ticket.updated' } });
  assert.equal(((await step(2, x.id)) as { version: number }).version, 2);
  assert.equal(((await step(2, x.id)) as { version: number }).version, 2, 'a retry of X: as stored');
  // the re-run asks for Y at 2, which X took: Y is stored as step 3
  assert.equal(((await step(2, y.id)) as { version: number }).version, 3);
  assert.equal(((await step(3, y.id)) as { version: number }).version, 3, 'a retry of Y: as stored');
  const r = await row(t.ticketId);
  assert.deepEqual(r.tags, ['x', 'y']);
  assert.equal(r.version, 3);
  assert.deepEqual(await fired(t.ticketId), [[x.id, 'ticket.updated'], [y.id, 'ticket.updated']]);
});
