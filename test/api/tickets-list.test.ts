import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { assertError, createTicket, insertManyTickets, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
let ids: Record<string, string> = {};
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
  const specs = [
    ['a', { title: 'Refund for double charge', body: 'my card was charged twice', priority: 'high', category: 'billing' }],
    ['b', { title: 'Crash on startup', body: 'the launcher crashes instantly', priority: 'urgent', category: 'technical' }],
    ['c', { title: 'Quest bug', body: 'dragon quest cannot be finished', priority: 'low', category: 'gameplay' }],
    ['d', { title: 'Password reset', body: 'reset email never arrives', priority: 'medium', category: 'account' }],
  ] as const;
  for (const [name, spec] of specs) ids[name] = (await createTicket(api, t, spec)).id;
  await api.request('POST', `/v1/tickets/${ids.b}/assign`, { token: t.token, body: { agentId: t.agent.id } });
  await api.request('POST', `/v1/tickets/${ids.c}/resolve`, { token: t.token, body: { sendNotification: false } });
});
afterAll(() => api?.stop());

const list = (query: string) => api.request('GET', `/v1/tickets?workspaceId=${t.workspace.id}&${query}`, { token: t.token });
const idsOf = (res: { body: any }) => res.body.data.map((x: any) => x.id);

test('default list: newest first, 25 per page, list-item fields only', async () => {
  const res = await list('');
  assert.equal(res.status, 200);
  assert.deepEqual(idsOf(res), [ids.d, ids.c, ids.b, ids.a]);
  assert.deepEqual(res.body.pagination, { total: 4, totalExact: true, limit: 25, offset: 0, hasMore: false, nextCursor: null });
  assert.deepEqual(Object.keys(res.body.data[0]).sort(), [
    'aiTriaged', 'assigneeId', 'category', 'createdAt', 'id', 'messageCount', 'playerId', 'priority', 'source', 'status', 'tags', 'title', 'updatedAt', 'workspaceId',
  ]);
});

test('filters: comma-separated status and priority, category, assignee, unassigned, player', async () => {
  assert.deepEqual(idsOf(await list('status=open,resolved&order=asc')), [ids.a, ids.c, ids.d]);
  assert.deepEqual(idsOf(await list('priority=urgent,high&order=asc')), [ids.a, ids.b]);
  assert.deepEqual(idsOf(await list('category=gameplay')), [ids.c]);
  assert.deepEqual(idsOf(await list(`assigneeId=${t.agent.id}`)), [ids.b]);
  assert.deepEqual(idsOf(await list('assigneeId=unassigned&order=asc')), [ids.a, ids.c, ids.d]);
  assert.equal((await list(`playerId=${t.player.playerId}`)).body.pagination.total, 4);
  assert.equal((await list('playerId=someone_else')).body.pagination.total, 0);
});

test('full-text search over title and body', async () => {
  assert.deepEqual(idsOf(await list('search=charged')), [ids.a]);
  assert.deepEqual(idsOf(await list('search=crashes')), [ids.b]);
  assert.deepEqual(idsOf(await list('search=dragon%20quest')), [ids.c]);
  assert.deepEqual(idsOf(await list('search=nothing-like-this')), []);
});

test('sort by priority and updatedAt', async () => {
  assert.deepEqual(idsOf(await list('sortBy=priority')), [ids.b, ids.a, ids.d, ids.c]);
  assert.deepEqual(idsOf(await list('sortBy=priority&order=asc')), [ids.c, ids.d, ids.a, ids.b]);
  const byUpdate = idsOf(await list('sortBy=updatedAt'));
  assert.equal(byUpdate.length, 4);
});

test('offset pagination and the opaque cursor walk the same order', async () => {
  const p1 = await list('limit=3');
  assert.deepEqual(p1.body.pagination, { total: 4, totalExact: true, limit: 3, offset: 0, hasMore: true, nextCursor: p1.body.pagination.nextCursor });
  const p2 = await list('limit=3&offset=3');
  assert.deepEqual(idsOf(p2), [ids.a]);
  assert.equal(p2.body.pagination.hasMore, false);
  const c2 = await list(`limit=3&cursor=${p1.body.pagination.nextCursor}`);
  assert.deepEqual(idsOf(c2), [ids.a]);
  assert.equal(c2.body.pagination.nextCursor, null);
  assertError(await list('cursor=garbage'), 400, 'validation_error');
});

test('updatedSince returns only tickets changed at or after the time', async () => {
  const since = new Date(Date.now() + 60_000).toISOString();
  assert.deepEqual(idsOf(await list(`updatedSince=${encodeURIComponent(since)}`)), []);
  assert.equal((await list('updatedSince=2000-01-01T00:00:00Z')).body.pagination.total, 4);
  assertError(await list('updatedSince=yesterday'), 400, 'validation_error');
});

test('limits and bad parameters are 400', async () => {
  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'status=pending', 'priority=critical', 'sortBy=title', 'order=up']) {
    assertError(await list(q), 400, 'validation_error');
  }
  assert.equal((await list('limit=100')).status, 200);
  assertError(await api.request('GET', '/v1/tickets', { token: t.token }), 400, 'validation_error');
});

test('above 1,000 matches the total is an estimate, flagged by totalExact=false', async () => {
  const big = await tenantWithPlayer(api);
  // rows written straight through the repository: this is about counting, not about lifecycles
  await insertManyTickets(api.deps.db, { workspaceId: big.workspace.id, playerRef: big.player.id, playerId: big.player.playerId }, 1050, (n) =>
    n <= 50 ? 'rare zebra' : 'common words',
  );
  await api.deps.db.query('ANALYZE tickets');
  const all = await api.request('GET', `/v1/tickets?workspaceId=${big.workspace.id}&limit=1`, { token: big.token });
  assert.equal(all.status, 200);
  assert.equal(all.body.pagination.totalExact, false);
  assert.ok(all.body.pagination.total > 1_000, String(all.body.pagination.total));
  assert.equal(all.body.pagination.hasMore, true);
  const rare = await api.request('GET', `/v1/tickets?workspaceId=${big.workspace.id}&search=zebra`, { token: big.token });
  assert.equal(rare.body.pagination.total, 50);
  assert.equal(rare.body.pagination.totalExact, true);
});
