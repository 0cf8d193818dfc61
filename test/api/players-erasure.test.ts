// GET /v1/players/{id}/tickets and DELETE /v1/players/{id} (erasure) over HTTP.
import assert from 'node:assert/strict';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { createApiKey, createTenant } from '../support/factories';
import { insertEvent, insertMessage, insertTicket, uniquePlayerId as pid } from '../support/player-helpers';
import { insertEndpoint, insertLoggedDelivery } from '../support/webhook-factories';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => ({ api, tenant, token } = await startTenantApi()));
afterAll(() => api.stop());

const upsert = (body: object) =>
  api.request('POST', '/v1/players', { token, body: { workspaceId: tenant.workspace.id, ...body } });

describe('GET /v1/players/{id}/tickets', () => {
  let player: any;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    player = (await upsert({ playerId: pid() })).body;
    const statuses = ['open', 'in_progress', 'resolved', 'closed', 'open'] as const;
    const base = Date.parse('2024-05-01T00:00:00Z');
    for (const [i, status] of statuses.entries()) {
      ids[`${status}${i}`] = await insertTicket(api.deps.db, {
        workspaceId: tenant.workspace.id,
        playerRef: player.id,
        playerId: player.playerId,
        status,
        title: `T${i}`,
        createdAt: new Date(base + i * 60_000),
      });
    }
    // another player's ticket never shows up
    const other = (await upsert({ playerId: pid() })).body;
    await insertTicket(api.deps.db, { workspaceId: tenant.workspace.id, playerRef: other.id, playerId: other.playerId });
  });

  const list = (query = '') => api.request('GET', `/v1/players/${player.id}/tickets${query}`, { token });

  it('lists all statuses newest first by default', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 5);
    assert.deepEqual(res.body.data.map((t: any) => t.title), ['T4', 'T3', 'T2', 'T1', 'T0']);
    assert.deepEqual(Object.keys(res.body.data[0]).sort(), ['createdAt', 'id', 'status', 'title']);
    assert.equal(res.body.data[0].id, ids.open4);
    assert.equal(res.body.data[0].createdAt, '2024-05-01T00:04:00.000Z');
    assert.equal((await list('?status=all')).body.total, 5);
  });

  it('filters by status (in_progress accepted too)', async () => {
    const open = await list('?status=open');
    assert.equal(open.body.total, 2);
    assert.deepEqual(open.body.data.map((t: any) => t.title), ['T4', 'T0']);
    for (const status of ['in_progress', 'resolved', 'closed']) {
      const res = await list(`?status=${status}`);
      assert.equal(res.body.total, 1);
      assert.equal(res.body.data[0].status, status);
    }
  });

  it('pages with limit and offset; total counts every match', async () => {
    const page = await list('?limit=2&offset=1');
    assert.equal(page.body.total, 5);
    assert.deepEqual(page.body.data.map((t: any) => t.title), ['T3', 'T2']);
    const past = await list('?offset=10');
    assert.equal(past.body.total, 5);
    assert.deepEqual(past.body.data, []);
    assert.equal((await list('?limit=100')).status, 200);
  });

  it('reports ticketCount on the player object', async () => {
    const res = await api.request('GET', `/v1/players/${player.id}`, { token });
    assert.equal(res.body.ticketCount, 5);
  });

  it('400 for bad paging and status, 404 for an unknown player, 403 without players:read', async () => {
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1.5', '?offset=-1', '?status=pending', '?status=open,closed']) {
      assertError(await list(q), 400, 'validation_error');
    }
    assertError(
      await api.request('GET', '/v1/players/kpl_00000000000000000000000000/tickets', { token }),
      404,
      'player_not_found',
    );
    const ticketsOnly = await createApiKey(api.deps.db, tenant.org, { scopes: ['tickets:read'] });
    assertError(await api.request('GET', `/v1/players/${player.id}/tickets`, { token: ticketsOnly.key }), 403, 'forbidden');
  });
});

describe('DELETE /v1/players/{id}', () => {
  it('purges the webhook payloads that name the player: the log and pending retries', async () => {
    const db = api.deps.db;
    const ws = tenant.workspace.id;
    const playerId = pid();
    const player = (await upsert({ playerId, displayName: 'Hook Me', email: 'hook@example.com' })).body;
    // an endpoint that no longer resolves anywhere: the rows matter here, not the sending
    const ep = await insertEndpoint(db, { workspaceId: ws, url: 'https://hooks.example.com/erasure', events: ['ticket.created'], active: false });
    const ticketId = await insertTicket(db, { workspaceId: ws, playerRef: player.id, playerId });
    const data = { id: ticketId, playerId, title: 'about Hook Me' };
    const eventId = await insertEvent(db, { workspaceId: ws, type: 'ticket.created', subjectId: ticketId, data });
    const other = await insertEvent(db, { workspaceId: ws, type: 'ticket.created', subjectId: 'tkt_other', data: { id: 'tkt_other', playerId: 'someone_else' } });
    // the suite's dispatcher may have written this (event, endpoint) row already: the factory takes it over
    const delivery = (eventId: string, data: object, status: 'failed' | 'succeeded') =>
      insertLoggedDelivery(db, { endpointId: ep.id, workspaceId: ws, eventId, data, status, completedAt: null });
    const logged = await delivery(eventId, data, 'failed');
    const bystander = await delivery(other, { id: 'tkt_other', playerId: 'someone_else' }, 'succeeded');

    assert.equal((await api.request('DELETE', `/v1/players/${player.id}`, { token })).status, 204);
    const rows = (await db.query('SELECT id, body FROM webhook_deliveries WHERE id = ANY($1)', [[logged, bystander]])).rows;
    const erased = JSON.parse(rows.find((r: any) => r.id === logged).body);
    assert.deepEqual(erased.data, { erased: true });
    assert.ok(!rows.find((r: any) => r.id === logged).body.includes(playerId));
    assert.equal(JSON.parse(rows.find((r: any) => r.id === bystander).body).data.playerId, 'someone_else');
  });

  it('erases the profile, anonymises ticket history and wipes event payloads in one go', async () => {
    const db = api.deps.db;
    const ws = tenant.workspace.id;
    const playerId = pid();
    const player = (await upsert({ playerId, displayName: 'Erase Me', email: 'erase@example.com', metadata: { steamId: '765' } })).body;
    const ticketId = await insertTicket(db, { workspaceId: ws, playerRef: player.id, playerId });
    const playerMsg = await insertMessage(db, ticketId, 'player', playerId, 'my account is broken');
    const agentMsg = await insertMessage(db, ticketId, 'agent', 'agt_someone', 'we are on it');
    const ticketEvent = await insertEvent(db, { workspaceId: ws, type: 'ticket.created', subjectId: ticketId, data: { id: ticketId, playerId } });
    const msgEvent = await insertEvent(db, {
      workspaceId: ws,
      type: 'message.created',
      subjectId: playerMsg,
      data: { id: playerMsg, ticketId, authorType: 'player', authorId: playerId },
    });
    const bystander = (await upsert({ playerId: pid(), email: 'keep@example.com' })).body;

    const del = await api.request('DELETE', `/v1/players/${player.id}`, { token });
    assert.equal(del.status, 204);
    assert.equal(del.body, undefined);

    // the profile reads as gone everywhere
    assertError(await api.request('GET', `/v1/players/${player.id}`, { token }), 404, 'player_not_found');
    assertError(await api.request('GET', `/v1/players/lookup?workspaceId=${ws}&playerId=${playerId}`, { token }), 404, 'player_not_found');
    assertError(await api.request('GET', `/v1/players/${player.id}/tickets`, { token }), 404, 'player_not_found');
    assertError(await api.request('DELETE', `/v1/players/${player.id}`, { token }), 404, 'player_not_found');

    const row = (await db.query('SELECT * FROM players WHERE id = $1', [player.id])).rows[0];
    assert.ok(row.erased_at);
    assert.equal(row.display_name, null);
    assert.equal(row.email, null);
    assert.deepEqual(row.metadata, {});
    assert.match(row.player_id, /^erased_[0-9a-f]{32}$/);
    const anon = row.player_id;

    const ticket = (await db.query('SELECT player_ref, player_id FROM tickets WHERE id = $1', [ticketId])).rows[0];
    assert.deepEqual(ticket, { player_ref: null, player_id: anon }, 'the ticket stays but is unlinked');
    const msgs = (await db.query('SELECT id, author_id FROM messages WHERE ticket_id = $1', [ticketId])).rows;
    assert.equal(msgs.find((m: any) => m.id === playerMsg).author_id, anon);
    assert.equal(msgs.find((m: any) => m.id === agentMsg).author_id, 'agt_someone');

    const events = (await db.query('SELECT id, data FROM events WHERE id = ANY($1) OR subject_id = $2', [[ticketEvent, msgEvent], player.id])).rows;
    assert.equal(events.length, 3);
    for (const e of events) assert.deepEqual(e.data, { erased: true });
    const untouched = (await db.query('SELECT data FROM events WHERE subject_id = $1', [bystander.id])).rows[0];
    assert.equal(untouched.data.email, 'keep@example.com', "another player's event keeps its payload");
    assert.equal((await api.request('GET', `/v1/players/${bystander.id}`, { token })).status, 200);

    // no trace of the purged values anywhere in the player's rows
    const dump = JSON.stringify((await db.query('SELECT * FROM players WHERE id = $1', [player.id])).rows);
    assert.ok(!dump.includes('erase@example.com') && !dump.includes('Erase Me') && !dump.includes(playerId));
  });

  it('a later upsert with the same playerId creates a fresh profile', async () => {
    const playerId = pid();
    const old = (await upsert({ playerId, displayName: 'Old', metadata: { a: 'b' } })).body;
    assert.equal((await api.request('DELETE', `/v1/players/${old.id}`, { token })).status, 204);
    const fresh = await upsert({ playerId });
    assert.equal(fresh.status, 200);
    assert.notEqual(fresh.body.id, old.id);
    assert.equal(fresh.body.displayName, null);
    assert.deepEqual(fresh.body.metadata, {});
    assert.equal(fresh.body.ticketCount, 0);
    assert.equal(fresh.body.firstSeenAt, fresh.body.lastSeenAt, 'it reads as newly created');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM events WHERE subject_id = $1 AND type = 'player.created'`, [fresh.body.id]);
    assert.equal(rows[0].n, 1);
  });

  it('an Idempotency-Key replay after erasure does not bring the old profile back', async () => {
    const headers = { 'Idempotency-Key': `erase-${pid()}` };
    const body = { workspaceId: tenant.workspace.id, playerId: pid(), displayName: 'Replayed' };
    const first = await api.request('POST', '/v1/players', { token, body, headers });
    assert.equal(first.status, 200);
    assert.equal((await api.request('DELETE', `/v1/players/${first.body.id}`, { token })).status, 204);
    const again = await api.request('POST', '/v1/players', { token, body, headers });
    assert.equal(again.status, 200);
    assert.notEqual(again.body.id, first.body.id);
    assert.equal(again.headers.get('Idempotent-Replayed'), null);
  });

  it('needs players:write and a visible player', async () => {
    const player = (await upsert({ playerId: pid() })).body;
    const reader = await createApiKey(api.deps.db, tenant.org, { scopes: ['players:read'] });
    assertError(await api.request('DELETE', `/v1/players/${player.id}`, { token: reader.key }), 403, 'forbidden');
    const other = await createTenant(api.deps.db);
    assertError(await api.request('DELETE', `/v1/players/${player.id}`, { token: other.key.key }), 404, 'player_not_found');
    assertError(await api.request('DELETE', `/v1/players/${player.id}`), 401, 'unauthorized');
    assertError(await api.request('DELETE', '/v1/players/kpl_00000000000000000000000000', { token }), 404, 'player_not_found');
    assert.equal((await api.request('GET', `/v1/players/${player.id}`, { token })).status, 200, 'still there');
  });
});
