// Time-skipping tests of every ticket timer at its exact boundary, on the real
// activities and the test database.
import assert from 'node:assert/strict';
import { findTicket } from '../../db/repositories/tickets';
import { newId } from '../../lib/ids';
import { messageUpdate, resolveUpdate, type CreateTicketInput } from '../../workflows/ticket/contract';
import { eventually } from '../support/eventually';
import { ticketSuite } from '../support/ticket-suite';

const suite = ticketSuite('ticket-lifecycle-test');
const actor = { keyId: 'key_test' };

async function openTicket(settings: object = {}, priority: CreateTicketInput['priority'] = 'medium') {
  const { handle, input, player } = await suite.openTicket({ settings, priority });
  assert.equal(await status(input.ticketId), 'open');
  return { handle, input, player };
}

const status = async (id: string) => (await findTicket(suite.db, id))!.status;
const events = async (id: string, type: string) =>
  (await suite.db.query('SELECT data FROM events WHERE subject_id = $1 AND type = $2', [id, type])).rows;

describe('auto-close of resolved tickets', () => {
  test('not closed at 71 h 59 min, closed at 72 h', async () => {
    const { handle, input } = await openTicket();
    await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor] });
    await suite.env.sleep('4319m');
    assert.equal(await status(input.ticketId), 'resolved');
    await suite.env.sleep('1m');
    await handle.result();
    const t = (await findTicket(suite.db, input.ticketId))!;
    assert.equal(t.status, 'closed');
    assert.equal(Date.parse(t.closedAt!) - Date.parse(t.resolvedAt!), 72 * 3600_000);
    assert.equal((await events(input.ticketId, 'ticket.closed')).length, 1);
  });

  test('a player reply re-opens the ticket and cancels the auto-close', async () => {
    const { handle, input } = await openTicket();
    await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor] });
    await suite.env.sleep('10h');
    const reply = { messageId: newId('msg'), authorType: 'player' as const, authorId: input.playerId, body: 'Still broken' };
    const result = await handle.executeUpdate(messageUpdate, { args: [reply, actor] });
    assert.equal(result.status, 'open');
    await suite.env.sleep('100h');
    assert.equal(await status(input.ticketId), 'open');
  });

  test('a workspace threshold of 24 h', async () => {
    const { handle, input } = await openTicket({ autoCloseHours: 24 });
    await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor] });
    await suite.env.sleep('1439m');
    assert.equal(await status(input.ticketId), 'resolved');
    await suite.env.sleep('1m');
    await handle.result();
    assert.equal(await status(input.ticketId), 'closed');
  });
});

/** The ticket's sla.breached events, once there is one (waiting in real time, not skipped time). */
const breachRecorded = (ticketId: string) =>
  eventually(async () => {
    const found = await events(ticketId, 'sla.breached');
    return found.length ? found : undefined;
  });

describe('SLA deadlines', () => {
  test('first-response breach at the exact deadline, recorded once', async () => {
    const sla = { urgent: { firstResponseMinutes: 30, resolutionMinutes: 600 } };
    const { input } = await openTicket({ sla }, 'urgent');
    await suite.env.sleep('1799s');
    assert.equal((await events(input.ticketId, 'sla.breached')).length, 0);
    await suite.env.sleep('1s');
    // the timer has fired; its local activity writes the breach in real time (slow under load)
    await breachRecorded(input.ticketId);
    await suite.env.sleep('1h');
    const breaches = await events(input.ticketId, 'sla.breached');
    assert.equal(breaches.length, 1);
    assert.equal(breaches[0].data.policy, 'first_response');
    assert.equal(Date.parse(breaches[0].data.breachedAt) - Date.parse(input.createdAt), 30 * 60_000);
  });

  test('an agent reply before the deadline prevents the first-response breach; resolution breaches at its deadline', async () => {
    const sla = { high: { firstResponseMinutes: 60, resolutionMinutes: 120 } };
    const { handle, input } = await openTicket({ sla }, 'high');
    await suite.env.sleep('59m');
    const reply = { messageId: newId('msg'), authorType: 'agent' as const, authorId: 'agt_x', body: 'Looking into it' };
    await handle.executeUpdate(messageUpdate, { args: [reply, actor] });
    await suite.env.sleep('3659s');
    assert.equal((await events(input.ticketId, 'sla.breached')).length, 0);
    await suite.env.sleep('1s');
    const breaches = await breachRecorded(input.ticketId);
    assert.deepEqual(breaches.map((b) => b.data.policy), ['resolution']);
  });
});
