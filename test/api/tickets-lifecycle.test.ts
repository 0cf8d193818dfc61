import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApi, type TestApi } from '../support/api';
import { assertError, createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token: t.token, body });
const eventTypes = async (id: string) =>
  (await api.deps.db.query('SELECT type FROM events WHERE subject_id = $1 ORDER BY occurred_at, id', [id])).rows.map((r) => r.type);

test('assign moves open to in_progress, expands the agent and records the note', async () => {
  const ticket = await createTicket(api, t);
  assertError(await call('POST', `/v1/tickets/${ticket.id}/assign`, { agentId: 'agt_missing' }), 404, 'agent_not_found');
  assertError(await call('POST', `/v1/tickets/${ticket.id}/assign`, {}), 400, 'validation_error');
  const res = await call('POST', `/v1/tickets/${ticket.id}/assign`, { agentId: t.agent.id, note: 'VIP player' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, 'in_progress');
  assert.equal(res.body.assigneeId, t.agent.id);
  assert.equal(res.body.assignee.id, t.agent.id);
  assert.equal(res.body.assignee.name, t.agent.name);
  assert.equal(res.body.internalNote, 'VIP player');
  const audit = await api.deps.db.query("SELECT note FROM ticket_audit WHERE ticket_id = $1 AND action = 'assign'", [ticket.id]);
  assert.equal(audit.rows[0].note, 'VIP player');
  assert.deepEqual(await eventTypes(ticket.id), ['ticket.created', 'ticket.assigned']);
  const full = await call('GET', `/v1/tickets/${ticket.id}`);
  assert.equal(full.body.assignee.id, t.agent.id);
});

test('patch changes only the given fields and echoes internalNote', async () => {
  const ticket = await createTicket(api, t, { tags: ['a', 'b'] });
  const res = await call('PATCH', `/v1/tickets/${ticket.id}`, { priority: 'urgent', tags: [], internalNote: 'call back' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['assigneeId', 'category', 'id', 'internalNote', 'priority', 'status', 'tags', 'updatedAt']);
  assert.equal(res.body.priority, 'urgent');
  assert.deepEqual(res.body.tags, []);
  assert.equal(res.body.status, 'open');
  assert.equal(res.body.internalNote, 'call back');
  assert.ok(res.body.updatedAt > ticket.updatedAt);
  assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, {}), 400, 'validation_error');
  assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'done' }), 400, 'validation_error');
  assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { assigneeId: 'agt_nope' }), 404, 'agent_not_found');
  const unassigned = await call('PATCH', `/v1/tickets/${ticket.id}`, { assigneeId: t.agent.id });
  assert.equal(unassigned.body.assigneeId, t.agent.id);
  assert.equal((await call('PATCH', `/v1/tickets/${ticket.id}`, { assigneeId: null })).body.assigneeId, null);
});

test('resolve notifies the player by email and says so truthfully', async () => {
  const ticket = await createTicket(api, t);
  const res = await call('POST', `/v1/tickets/${ticket.id}/resolve`, { resolutionNote: 'Reset the password' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, 'resolved');
  assert.equal(res.body.resolutionNote, 'Reset the password');
  assert.equal(res.body.notificationSent, true);
  assert.ok(res.body.resolvedAt);
  // The email chain's first provider took it: in the test run the fake Postmark
  // (scripts/test-services.sh), which keeps each accepted message under its MessageID.
  const { rows } = await api.deps.db.query('SELECT recipient, provider_message_id FROM notifications WHERE ticket_id = $1', [ticket.id]);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].recipient, `robin.${t.workspace.id}@players.test`);
  const mail = JSON.parse(readFileSync(join(process.env.POSTMARK_SINK_DIR!, `${rows[0].provider_message_id}.json`), 'utf8'));
  assert.ok(mail.To.split(', ').includes(`robin.${t.workspace.id}@players.test`));
  assert.deepEqual(mail.Headers, [{ Name: 'X-Ticket-Id', Value: ticket.id }]);
  assertError(await call('POST', `/v1/tickets/${ticket.id}/resolve`, {}), 422, 'invalid_status_transition');

  const quiet = await createTicket(api, t);
  const noMail = await call('POST', `/v1/tickets/${quiet.id}/resolve`, { sendNotification: false });
  assert.equal(noMail.body.notificationSent, false);
});

test('no email address means notificationSent is false', async () => {
  const { createPlayer } = await import('../support/factories');
  const silent = await createPlayer(api.deps.db, t.workspace.id, { email: null });
  const ticket = await createTicket(api, t, { playerId: silent.playerId });
  const res = await call('POST', `/v1/tickets/${ticket.id}/resolve`, {});
  assert.equal(res.body.notificationSent, false);
});

test('a player reply re-opens a resolved ticket; any reply on a closed one is 409', async () => {
  const ticket = await createTicket(api, t);
  await call('POST', `/v1/tickets/${ticket.id}/resolve`, { sendNotification: false });
  const reply = await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'Still broken' });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  assert.match(reply.body.id, /^msg_/);
  assert.equal(reply.body.authorId, t.player.playerId);
  const after = await call('GET', `/v1/tickets/${ticket.id}`);
  assert.equal(after.body.status, 'open');
  assert.equal(after.body.messageCount, 1);
  assert.equal(after.body.messages[0].body, 'Still broken');

  const agentReply = await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'agent', authorId: t.agent.id, body: 'On it' });
  assert.equal(agentReply.status, 201);
  assertError(await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'agent', body: 'x' }), 400, 'validation_error');

  const closed = await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'closed' });
  assert.equal(closed.body.status, 'closed');
  assertError(await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'hello?' }), 409, 'ticket_already_closed');
  assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'open' }), 422, 'invalid_status_transition');
  assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { priority: 'low' }), 409, 'ticket_already_closed');
  assertError(await call('POST', `/v1/tickets/${ticket.id}/assign`, { agentId: t.agent.id }), 409, 'ticket_already_closed');
  assertError(await call('POST', `/v1/tickets/${ticket.id}/resolve`, {}), 409, 'ticket_already_closed');
  assert.deepEqual(await eventTypes(ticket.id), ['ticket.created', 'ticket.resolved', 'message.created', 'message.created', 'ticket.closed']);
});

test('single-ticket retrieval expands player, assignee, messages and the suggested reply', async () => {
  const ticket = await createTicket(api, t);
  const res = await call('GET', `/v1/tickets/${ticket.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.player, {
    id: t.player.id,
    displayName: 'Robin',
    email: `robin.${t.workspace.id}@players.test`,
    platform: 'steam',
    steamId: '7656119',
    accountAge: '3y',
    lifetimeSpend: 42.5,
    loyaltyTier: 'gold',
  });
  assert.ok('aiSuggestedReply' in res.body);
  assert.deepEqual(res.body.messages, []);
  assertError(await call('GET', '/v1/tickets/tkt_missing'), 404, 'ticket_not_found');
});

test('delete is 204 and removes the ticket with its messages', async () => {
  const ticket = await createTicket(api, t);
  await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'hi' });
  const res = await call('DELETE', `/v1/tickets/${ticket.id}`);
  assert.equal(res.status, 204);
  assertError(await call('GET', `/v1/tickets/${ticket.id}`), 404, 'ticket_not_found');
  assertError(await call('DELETE', `/v1/tickets/${ticket.id}`), 404, 'ticket_not_found');
  const left = await api.deps.db.query('SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1', [ticket.id]);
  assert.equal(left.rows[0].n, 0);
});
