// Step keys at the ticket workflow (docs/tickets.md, "Step keys"), with the real
// activities on the test database. A workflow task lost after its local activity
// committed is reproduced without killing anything: change A is stored directly
// through the domain command as the next step, with the key its Update would give it
// (what the lost task committed), and the Updates are then sent with client-chosen ids.
import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { findTicket } from '../../db/repositories/tickets';
import { applyTicketChange } from '../../domain/tickets/apply-change';
import type { LifecycleChange } from '../../domain/tickets/types';
import { newId } from '../../lib/ids';
import { assignUpdate, messageUpdate, patchUpdate, resolveUpdate, stateQuery } from '../../workflows/ticket/contract';
import { ticketSuite } from '../support/ticket-suite';

const suite = ticketSuite('ticket-step-keys-test');
const actor = { keyId: 'key_test' };
const openTicket = () => suite.openTicket({ title: 'Purchase not delivered', body: 'I bought the season pass but it does not show up.' });

/** What the lost workflow task committed: `change` stored as step `version` under the key of Update `updateId`. */
async function storedByLostTask(ticketId: string, version: number, change: LifecycleChange, updateId: string) {
  const at = new Date(await suite.env.currentTimeMs()).toISOString();
  const result = await applyTicketChange(suite.db, { ticketId, version, at, change, actor, key: `update:${updateId}` });
  assert.equal(result?.version, version);
}

const eventTypes = async (ticketId: string) =>
  (await suite.db.query('SELECT type FROM events WHERE subject_id = $1 AND type <> $2 ORDER BY occurred_at, id', [ticketId, 'ticket.created'])).rows.map(
    (r: { type: string }) => r.type,
  );
const row = async (ticketId: string) => (await findTicket(suite.db, ticketId)) as Awaited<ReturnType<typeof findTicket>> & { version: number };
const stepLog = async (ticketId: string) =>
  (await suite.db.query('SELECT version, step_key AS key FROM ticket_steps WHERE ticket_id = $1 ORDER BY version', [ticketId])).rows;
const refusalType = (err: unknown) => {
  assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
  return (err.cause as { type?: string }).type;
};

test('B lands as the step after A with its own effect; A asking again is answered without a second application', async () => {
  const { handle, ticketId, player, agent } = await openTicket();
  await storedByLostTask(ticketId, 2, { kind: 'assign', agentId: agent.id }, 'upd-a');

  const reply = { messageId: newId('msg'), authorType: 'player' as const, authorId: player.playerId, body: 'Any news?' };
  const b = await handle.executeUpdate(messageUpdate, { args: [reply, actor], updateId: 'upd-b' });
  assert.deepEqual(b, { ticketId, version: 3, status: 'in_progress' });

  const a = await handle.executeUpdate(assignUpdate, { args: [{ agentId: agent.id }, actor], updateId: 'upd-a' });
  assert.deepEqual(a, { ticketId, version: 2, status: 'in_progress' }, 'the step A was stored as');

  const t = await row(ticketId);
  assert.deepEqual([t.version, t.assigneeId, t.messageCount], [3, agent.id, 1]);
  assert.deepEqual(await eventTypes(ticketId), ['ticket.assigned', 'message.created']);
  assert.deepEqual(await stepLog(ticketId), [
    { version: 2, key: 'update:upd-a' },
    { version: 3, key: 'update:upd-b' },
  ]);
  // the run's numbering follows the row: the next change is step 4
  assert.equal((await handle.query(stateQuery))?.version, 3);
  const c = await handle.executeUpdate(patchUpdate, { args: [{ priority: 'high' }, actor], updateId: 'upd-c' });
  assert.deepEqual(c, { ticketId, version: 4, status: 'in_progress' });
});

test('B refused after A closed the ticket: B gets the refusal it would have got second', async () => {
  const { handle, ticketId, player } = await openTicket();
  await storedByLostTask(ticketId, 2, { kind: 'patch', status: 'closed' }, 'upd-a');

  const reply = { messageId: newId('msg'), authorType: 'player' as const, authorId: player.playerId, body: 'Hello?' };
  const err = await handle.executeUpdate(messageUpdate, { args: [reply, actor], updateId: 'upd-b' }).catch((e: unknown) => e);
  assert.equal(refusalType(err), 'ticket_already_closed');

  // the run learned that the ticket is closed: its lifecycle ends
  assert.equal(await handle.result(), 'closed');
  const t = await row(ticketId);
  assert.deepEqual([t.version, t.status, t.messageCount], [2, 'closed', 0]);
  assert.deepEqual(await eventTypes(ticketId), ['ticket.closed']);
});

test('a change stored by the lost task is not refused by the state it made itself; the other one is', async () => {
  const { handle, ticketId } = await openTicket();
  await storedByLostTask(ticketId, 2, { kind: 'resolve', sendNotification: false }, 'upd-a');

  // B, a second resolve: its number is taken, and against the resolved row it is refused
  const err = await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor], updateId: 'upd-b' }).catch((e: unknown) => e);
  assert.equal(refusalType(err), 'invalid_status_transition');
  // A asks again: resolving a resolved ticket would be refused, yet A is the resolve that made it so
  const a = await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor], updateId: 'upd-a' });
  assert.deepEqual(a, { ticketId, version: 2, status: 'resolved', notificationSent: false });
  // a third resolve is refused as before
  const third = await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor], updateId: 'upd-c' }).catch((e: unknown) => e);
  assert.equal(refusalType(third), 'invalid_status_transition');

  assert.equal((await row(ticketId)).version, 2);
  assert.deepEqual(await eventTypes(ticketId), ['ticket.resolved']);

  // the auto-close the run now knows of is a step of the workflow's own, keyed by its deadline
  await suite.env.sleep('72h');
  assert.equal(await handle.result(), 'closed');
  const resolvedAt = Date.parse((await row(ticketId)).resolvedAt!);
  assert.deepEqual(await stepLog(ticketId), [
    { version: 2, key: 'update:upd-a' },
    { version: 3, key: `deadline:auto_close:${new Date(resolvedAt + 72 * 3600_000).toISOString()}` },
  ]);
});
