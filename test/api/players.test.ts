// POST /v1/players (upsert), GET /v1/players/{id}, GET /v1/players/lookup over HTTP.
import assert from 'node:assert/strict';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { uniquePlayerId as pid } from '../support/player-helpers';
import { createApiKey, createOrganization, createTenant, createWorkspace } from '../support/factories';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => ({ api, tenant, token } = await startTenantApi()));
afterAll(() => api.stop());

const upsert = (body: unknown, key = token) => api.request('POST', '/v1/players', { token: key, body });

describe('POST /v1/players', () => {
  it('creates a profile with 200 and writes exactly one player.created event in the outbox', async () => {
    const playerId = pid();
    const res = await upsert({
      workspaceId: tenant.workspace.id,
      playerId,
      displayName: 'Pat',
      email: 'pat@example.com',
      metadata: { platform: 'steam', level: '12' },
    });
    assert.equal(res.status, 200);
    const p = res.body;
    assert.match(p.id, /^kpl_/);
    assert.deepEqual(
      { ...p, id: undefined, firstSeenAt: undefined, lastSeenAt: undefined },
      {
        id: undefined,
        playerId,
        workspaceId: tenant.workspace.id,
        displayName: 'Pat',
        email: 'pat@example.com',
        ticketCount: 0,
        metadata: { platform: 'steam', level: '12' },
        firstSeenAt: undefined,
        lastSeenAt: undefined,
      },
    );
    assert.equal(p.firstSeenAt, p.lastSeenAt, 'a fresh profile was first and last seen now');
    assert.ok(!Number.isNaN(Date.parse(p.firstSeenAt)));

    const { rows } = await api.deps.db.query('SELECT * FROM events WHERE subject_id = $1', [p.id]);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].type, 'player.created');
    assert.equal(rows[0].workspace_id, tenant.workspace.id);
    assert.equal(rows[0].dedupe_key, `player.created:${p.id}`);
    assert.match(rows[0].id, /^evt_/);
    assert.deepEqual(rows[0].data, p, 'the event carries the player profile');
  });

  it('updates in place: same id, firstSeenAt kept, lastSeenAt moves, given fields replace, no second event', async () => {
    const playerId = pid();
    const first = (await upsert({ workspaceId: tenant.workspace.id, playerId, displayName: 'A', email: 'a@example.com', metadata: { a: '1', b: '2' } })).body;
    await new Promise((r) => setTimeout(r, 5));
    const res = await upsert({ workspaceId: tenant.workspace.id, playerId, displayName: 'B', metadata: { c: '3' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, first.id);
    assert.equal(res.body.firstSeenAt, first.firstSeenAt);
    assert.ok(Date.parse(res.body.lastSeenAt) > Date.parse(res.body.firstSeenAt), 'update: lastSeenAt after firstSeenAt');
    assert.equal(res.body.displayName, 'B');
    assert.equal(res.body.email, 'a@example.com', 'an omitted field keeps its value');
    assert.deepEqual(res.body.metadata, { c: '3' }, 'metadata is replaced as a whole');

    const cleared = await upsert({ workspaceId: tenant.workspace.id, playerId, displayName: null, email: null });
    assert.equal(cleared.body.displayName, null);
    assert.equal(cleared.body.email, null);
    assert.deepEqual(cleared.body.metadata, { c: '3' });

    const { rows } = await api.deps.db.query('SELECT count(*)::int AS n FROM events WHERE subject_id = $1', [first.id]);
    assert.equal(rows[0].n, 1);
  });

  it('is race-safe: concurrent first upserts give one profile and one event', async () => {
    const playerId = pid();
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) => upsert({ workspaceId: tenant.workspace.id, playerId, displayName: `P${i}` })),
    );
    for (const r of all) assert.equal(r.status, 200);
    const ids = new Set(all.map((r) => r.body.id));
    assert.equal(ids.size, 1);
    const { rows } = await api.deps.db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'player.created' AND subject_id = $1`,
      [[...ids][0]],
    );
    assert.equal(rows[0].n, 1);
  });

  it('infers workspaceId from a workspace-bound key, and needs it otherwise', async () => {
    const bound = await createApiKey(api.deps.db, tenant.org, { workspaceId: tenant.workspace.id, scopes: ['players:write'] });
    const res = await upsert({ playerId: pid() }, bound.key);
    assert.equal(res.status, 200);
    assert.equal(res.body.workspaceId, tenant.workspace.id);
    assertError(await upsert({ playerId: pid() }), 400, 'validation_error');
  });

  it('rejects bad input with 400 validation_error', async () => {
    const ws = tenant.workspace.id;
    const keys = (k: number) => Object.fromEntries(Array.from({ length: k }, (_, i) => [`k${i}`, 'v']));
    const bad: unknown[] = [
      {},
      { workspaceId: ws },
      { workspaceId: ws, playerId: '' },
      { workspaceId: ws, playerId: '   ' },
      { workspaceId: '', playerId: pid() },
      { workspaceId: ws, playerId: 42 },
      { workspaceId: ws, playerId: pid(), metadata: keys(51) },
      { workspaceId: ws, playerId: pid(), metadata: { level: 12 } },
      { workspaceId: ws, playerId: pid(), metadata: { nested: { a: 'b' } } },
      { workspaceId: ws, playerId: pid(), metadata: ['a'] },
      { workspaceId: ws, playerId: pid(), metadata: 'x' },
      { workspaceId: ws, playerId: pid(), email: 'not-an-email' },
      { workspaceId: ws, playerId: pid(), displayName: 5 },
      { workspaceId: ws, playerId: pid(), displayName: 'x'.repeat(256) },
      { workspaceId: ws, playerId: pid(), unknownField: true },
      { workspaceId: ws, playerId: 'erased_abc' },
      { workspaceId: ws, playerId: 'nul\u0000id' },
      { workspaceId: ws, playerId: pid(), metadata: { k: 'nul\u0000' } },
      [],
    ];
    for (const body of bad) {
      const res = await upsert(body);
      assertError(res, 400, 'validation_error');
    }
    const tooMany = await upsert({ workspaceId: ws, playerId: pid(), metadata: keys(51) });
    assert.match(tooMany.body.error.message, /metadata/);
    assert.match((await upsert({ workspaceId: ws, playerId: pid(), metadata: { level: 12 } })).body.error.message, /metadata\.level/);
    assert.equal((await upsert({ workspaceId: ws, playerId: pid(), metadata: keys(50) })).status, 200, '50 keys are fine');
  });

  it('rejects a malformed JSON body with 400', async () => {
    const res = await api.request('POST', '/v1/players', { token, rawBody: '{"playerId": "x",' });
    assertError(res, 400, 'validation_error');
  });

  it('401 without or with an unknown key', async () => {
    assertError(await api.request('POST', '/v1/players', { body: { workspaceId: tenant.workspace.id, playerId: pid() } }), 401, 'unauthorized');
    assertError(await upsert({ workspaceId: tenant.workspace.id, playerId: pid() }, 'sk_live_nope'), 401, 'unauthorized');
  });

  it('403 for a missing scope, another workspace, another organization or environment', async () => {
    const db = api.deps.db;
    const body = { workspaceId: tenant.workspace.id, playerId: pid() };
    const readOnly = await createApiKey(db, tenant.org, { scopes: ['tickets:read'] });
    assertError(await upsert(body, readOnly.key), 403, 'forbidden');
    const playersRead = await createApiKey(db, tenant.org, { scopes: ['players:read'] });
    assertError(await upsert(body, playersRead.key), 403, 'forbidden');

    const otherWs = await createWorkspace(db, tenant.org);
    const boundElsewhere = await createApiKey(db, tenant.org, { workspaceId: otherWs.id, scopes: ['players:write'] });
    assertError(await upsert(body, boundElsewhere.key), 403, 'forbidden');

    const otherOrg = await createTenant(db);
    assertError(await upsert(body, otherOrg.key.key), 403, 'forbidden');
    const sandboxKey = await createApiKey(db, tenant.org, { kind: 'sk_test_' });
    assertError(await upsert(body, sandboxKey.key), 403, 'forbidden');
    assertError(await upsert({ workspaceId: 'ws_doesnotexist', playerId: pid() }), 403, 'forbidden');
  });
});

describe('GET /v1/players/{id} and /v1/players/lookup', () => {
  let player: any;
  beforeAll(async () => {
    player = (await upsert({ workspaceId: tenant.workspace.id, playerId: pid(), displayName: 'Looked Up' })).body;
  });

  it('returns the player object by kpl id', async () => {
    const res = await api.request('GET', `/v1/players/${player.id}`, { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, player);
    const reader = await createApiKey(api.deps.db, tenant.org, { scopes: ['players:read'] });
    assert.equal((await api.request('GET', `/v1/players/${player.id}`, { token: reader.key })).status, 200);
  });

  it('404 player_not_found for unknown, malformed and other-workspace ids (400 for a NUL)', async () => {
    assertError(await api.request('GET', '/v1/players/kpl_00000000000000000000000000', { token }), 404, 'player_not_found');
    assertError(await api.request('GET', '/v1/players/not-an-id', { token }), 404, 'player_not_found');
    // a NUL in a path id is refused by the kit's input limits before any lookup (docs/api-kit.md)
    assertError(await api.request('GET', '/v1/players/kpl_%00', { token }), 400, 'validation_error');
    const otherOrg = await createTenant(api.deps.db);
    assertError(await api.request('GET', `/v1/players/${player.id}`, { token: otherOrg.key.key }), 404, 'player_not_found');
    const otherWs = await createWorkspace(api.deps.db, tenant.org);
    const bound = await createApiKey(api.deps.db, tenant.org, { workspaceId: otherWs.id });
    assertError(await api.request('GET', `/v1/players/${player.id}`, { token: bound.key }), 404, 'player_not_found');
  });

  it('403 without players:read, 401 without a key', async () => {
    const ticketsOnly = await createApiKey(api.deps.db, tenant.org, { scopes: ['tickets:read'] });
    assertError(await api.request('GET', `/v1/players/${player.id}`, { token: ticketsOnly.key }), 403, 'forbidden');
    assertError(await api.request('GET', `/v1/players/${player.id}`), 401, 'unauthorized');
  });

  it('looks a player up by workspaceId + playerId', async () => {
    const q = new URLSearchParams({ workspaceId: tenant.workspace.id, playerId: player.playerId });
    const res = await api.request('GET', `/v1/players/lookup?${q}`, { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, player);
    const bound = await createApiKey(api.deps.db, tenant.org, { workspaceId: tenant.workspace.id, scopes: ['players:read'] });
    const inferred = await api.request('GET', `/v1/players/lookup?playerId=${encodeURIComponent(player.playerId)}`, { token: bound.key });
    assert.equal(inferred.status, 200);
    assert.equal(inferred.body.id, player.id);
  });

  it('lookup: 400 for missing parameters, 404 when absent, 403 for a foreign workspace', async () => {
    const ws = tenant.workspace.id;
    assertError(await api.request('GET', `/v1/players/lookup?workspaceId=${ws}`, { token }), 400, 'validation_error');
    assertError(await api.request('GET', `/v1/players/lookup?playerId=${player.playerId}`, { token }), 400, 'validation_error');
    assertError(await api.request('GET', `/v1/players/lookup?workspaceId=${ws}&playerId=a&playerId=b`, { token }), 400, 'validation_error');
    assertError(await api.request('GET', `/v1/players/lookup?workspaceId=${ws}&playerId=nobody`, { token }), 404, 'player_not_found');
    const other = await createTenant(api.deps.db);
    const q = new URLSearchParams({ workspaceId: other.workspace.id, playerId: player.playerId });
    assertError(await api.request('GET', `/v1/players/lookup?${q}`, { token }), 403, 'forbidden');
    const ticketsOnly = await createApiKey(api.deps.db, tenant.org, { scopes: ['tickets:read'] });
    assertError(await api.request('GET', `/v1/players/lookup?workspaceId=${ws}&playerId=x`, { token: ticketsOnly.key }), 403, 'forbidden');
  });

  it('serves the player paths in the OpenAPI document', async () => {
    const res = await api.request('GET', '/v1/openapi.json');
    assert.equal(res.status, 200);
    for (const path of ['/v1/players', '/v1/players/lookup', '/v1/players/{id}', '/v1/players/{id}/tickets']) {
      assert.ok(res.body.paths[path], `missing ${path}`);
    }
    assert.ok(res.body.paths['/v1/players/{id}'].delete);
  });
});
