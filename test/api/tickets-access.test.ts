import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { createApiKey, createPlayer } from '../support/factories';
import { assertError, createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
let other: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
  other = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

test('no or bad credentials are 401', async () => {
  assertError(await api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}`), 401, 'unauthorized');
  assertError(await api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}`, { token: 'sk_live_nope' }), 401, 'unauthorized');
});

test("another organization's workspace is 403, its tickets 404", async () => {
  const ticket = await createTicket(api, t);
  assertError(await api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}`, { token: other.token }), 403, 'forbidden');
  assertError(await api.request('GET', `/v1/tickets/${ticket.id}`, { token: other.token }), 404, 'ticket_not_found');
  assertError(await api.request('PATCH', `/v1/tickets/${ticket.id}`, { token: other.token, body: { priority: 'low' } }), 404, 'ticket_not_found');
  const res = await api.request('POST', '/v1/tickets', {
    token: other.token,
    body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'x', body: 'y' },
  });
  assertError(res, 403, 'forbidden');
});

test('sk_test_ keys see only sandbox workspaces and sk_live_ keys only live ones', async () => {
  const sandbox = await tenantWithPlayer(api, { environment: 'sandbox' });
  const liveKeySameOrg = await createApiKey(api.deps.db, sandbox.org, { kind: 'sk_live_' });
  assertError(await api.request('GET', `/v1/tickets?workspaceId=${sandbox.workspace.id}`, { token: liveKeySameOrg.key }), 403, 'forbidden');
  assert.equal((await api.request('GET', `/v1/tickets?workspaceId=${sandbox.workspace.id}`, { token: sandbox.token })).status, 200);
  const testKeyOnLive = await createApiKey(api.deps.db, t.org, { kind: 'sk_test_' });
  assertError(await api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}`, { token: testKeyOnLive.key }), 403, 'forbidden');
});

test('a read-only key reads but cannot write', async () => {
  const ticket = await createTicket(api, t);
  const readOnly = await createApiKey(api.deps.db, t.org, { scopes: ['tickets:read'] });
  assert.equal((await api.request('GET', `/v1/tickets/${ticket.id}`, { token: readOnly.key })).status, 200);
  assertError(await api.request('PATCH', `/v1/tickets/${ticket.id}`, { token: readOnly.key, body: { priority: 'low' } }), 403, 'forbidden');
  assertError(
    await api.request('POST', '/v1/tickets', { token: readOnly.key, body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'x', body: 'y' } }),
    403,
    'forbidden',
  );
});

test('an sdk_ key acts for its own player only', async () => {
  const mine = await createTicket(api, t);
  const someoneElse = await createPlayer(api.deps.db, t.workspace.id);
  const theirs = await createTicket(api, t, { playerId: someoneElse.playerId });
  const sdk = await createApiKey(api.deps.db, t.org, { kind: 'sdk_', workspaceId: t.workspace.id, playerId: t.player.playerId });
  const listed = await api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}`, { token: sdk.key });
  assert.equal(listed.status, 200);
  assert.ok(listed.body.data.every((x: any) => x.playerId === t.player.playerId));
  assert.ok(listed.body.data.some((x: any) => x.id === mine.id));
  assertError(await api.request('GET', `/v1/tickets/${theirs.id}`, { token: sdk.key }), 404, 'ticket_not_found');
  const own = await api.request('GET', `/v1/tickets/${mine.id}`, { token: sdk.key });
  assert.equal(own.status, 200);
  assert.equal('internalNote' in own.body, false);
  const created = await api.request('POST', '/v1/tickets', {
    token: sdk.key,
    body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'From the game', body: 'help' },
  });
  assert.equal(created.status, 201);
  assert.equal(created.body.source, 'sdk');
  assertError(
    await api.request('POST', '/v1/tickets', { token: sdk.key, body: { workspaceId: t.workspace.id, playerId: someoneElse.playerId, title: 'x', body: 'y' } }),
    403,
    'forbidden',
  );
  const reply = await api.request('POST', `/v1/tickets/${mine.id}/messages`, { token: sdk.key, body: { authorType: 'player', body: 'more info' } });
  assert.equal(reply.status, 201);
  assertError(await api.request('POST', `/v1/tickets/${mine.id}/resolve`, { token: sdk.key, body: {} }), 403, 'forbidden');
});
