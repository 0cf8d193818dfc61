import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { assertError, createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { eventually } from '../support/eventually';
import { setTicketUsage } from '../support/factories';

let api: TestApi;
let t: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

test('create returns 201 with the full ticket and defaults', async () => {
  const before = (await api.deps.db.query('SELECT last_seen_at FROM players WHERE id = $1', [t.player.id])).rows[0].last_seen_at;
  const ticket = await createTicket(api, t, { tags: ['login'], metadata: { build: '1.2.3' } });
  assert.match(ticket.id, /^tkt_/);
  assert.equal(ticket.status, 'open');
  assert.equal(ticket.priority, 'medium');
  assert.equal(ticket.source, 'api');
  assert.equal(ticket.assigneeId, null);
  assert.equal(ticket.assignee, null);
  assert.equal(ticket.messageCount, 0);
  assert.equal(ticket.resolvedAt, null);
  assert.equal(ticket.closedAt, null);
  assert.equal(ticket.playerId, t.player.playerId);
  assert.deepEqual(ticket.tags, ['login']);
  assert.deepEqual(ticket.metadata, { build: '1.2.3' });
  assert.equal('aiSuggestedReply' in ticket, false);
  assert.equal('messages' in ticket, false);
  const after = (await api.deps.db.query('SELECT last_seen_at FROM players WHERE id = $1', [t.player.id])).rows[0].last_seen_at;
  assert.ok(after > before, 'lastSeenAt moves on ticket creation');
  const events = await api.deps.db.query("SELECT data FROM events WHERE subject_id = $1 AND type = 'ticket.created'", [ticket.id]);
  assert.equal(events.rowCount, 1);
  assert.equal(events.rows[0].data.id, ticket.id);
});

test('AI triage fills its four fields within seconds', async () => {
  const ticket = await createTicket(api, t, { title: 'Charged twice for gems', body: 'I was billed two times for the 500 gem pack, please refund one charge' });
  const full = await eventually(async () => {
    const res = await api.request('GET', `/v1/tickets/${ticket.id}`, { token: t.token });
    return res.body.aiTriaged ? res.body : null;
  });
  assert.equal(full.aiSuggestedCategory, 'billing');
  assert.ok(full.aiConfidence > 0 && full.aiConfidence <= 1);
  assert.match(full.aiSuggestedReply, /Robin/);
  assert.equal(full.category, 'billing', 'an omitted category takes the suggestion');
});

test('validation errors are 400 validation_error in the envelope', async () => {
  const base = { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'x', body: 'y' };
  for (const body of [
    { ...base, title: undefined },
    { ...base, body: undefined },
    { ...base, title: 'x'.repeat(256) },
    { ...base, priority: 'critical' },
    { ...base, source: 'fax' },
    { ...base, tags: 'a,b' },
    { ...base, metadata: [1, 2] },
    { ...base, workspaceId: undefined },
  ]) {
    assertError(await api.request('POST', '/v1/tickets', { token: t.token, body }), 400, 'validation_error');
  }
  assertError(await api.request('POST', '/v1/tickets', { token: t.token, rawBody: '{"title": ' }), 400, 'validation_error');
  assertError(await api.request('POST', '/v1/tickets', { token: t.token, rawBody: 'x'.repeat(2_000_000) }), 413, 'payload_too_large');
});

test('a title of exactly 255 characters is accepted', async () => {
  const ticket = await createTicket(api, t, { title: 'y'.repeat(255) });
  assert.equal(ticket.title.length, 255);
});

test('unknown player is 404 player_not_found; the kpl_ id works too', async () => {
  const res = await api.request('POST', '/v1/tickets', {
    token: t.token,
    body: { workspaceId: t.workspace.id, playerId: 'plr_nobody', title: 'x', body: 'y' },
  });
  assertError(res, 404, 'player_not_found');
  const byInternalId = await createTicket(api, t, { playerId: t.player.id });
  assert.equal(byInternalId.playerId, t.player.playerId);
});

test('unknown routes and methods are clear 4xx', async () => {
  assertError(await api.request('GET', '/v1/nope', { token: t.token }), 404, 'not_found');
  const res = await api.request('PUT', '/v1/tickets', { token: t.token, body: {} });
  assert.ok(res.status === 405 || res.status === 404, String(res.status));
  assert.ok(res.body.error.code);
});

test('Idempotency-Key replays the first response; another body is 409', async () => {
  const headers = { 'Idempotency-Key': `idem-${Date.now()}` };
  const body = { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'Idempotent', body: 'once' };
  const first = await api.request('POST', '/v1/tickets', { token: t.token, body, headers });
  const second = await api.request('POST', '/v1/tickets', { token: t.token, body, headers });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.body.id, first.body.id);
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  const count = await api.deps.db.query("SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND title = 'Idempotent'", [t.workspace.id]);
  assert.equal(count.rows[0].n, 1);
  const other = await api.request('POST', '/v1/tickets', { token: t.token, body: { ...body, body: 'twice' }, headers });
  assertError(other, 409, 'idempotency_key_reused');
});

test('the monthly ticket quota of the plan gives a clear 429', async () => {
  const starter = await tenantWithPlayer(api, { plan: 'starter' });
  const month = new Date().toISOString().slice(0, 7);
  await setTicketUsage(api.deps.db, starter.org.id, month, 5000);
  const res = await api.request('POST', '/v1/tickets', {
    token: starter.token,
    body: { workspaceId: starter.workspace.id, playerId: starter.player.playerId, title: 'x', body: 'y' },
  });
  assertError(res, 429, 'ticket_quota_exceeded');
  assert.ok(Number(res.headers.get('retry-after')) > 0);
});

test('concurrent creates for one player neither fail nor deadlock in Postgres', async () => {
  const deadlocks = async () =>
    (await api.deps.db.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0].deadlocks;
  const before = Number(await deadlocks());
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      api.request('POST', '/v1/tickets', {
        token: t.token,
        body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: `Burst ${i}`, body: 'same player, same moment' },
      }),
    ),
  );
  assert.deepEqual(results.map((r) => r.status), Array(8).fill(201));
  await new Promise((r) => setTimeout(r, 1500)); // Postgres flushes its statistics about once a second
  assert.equal(Number(await deadlocks()), before, 'Postgres detected a deadlock');
});
