// POST /v1/agents, GET /v1/agents, GET /v1/agents/{id} over HTTP, and findAgent.
import assert from 'node:assert/strict';
import { findAgent } from '../../db/repositories/agents';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { createApiKey, createTenant, createWorkspace } from '../support/factories';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => ({ api, tenant, token } = await startTenantApi()));
afterAll(() => api.stop());

const create = (body: unknown, key = token) => api.request('POST', '/v1/agents', { token: key, body });

describe('agents', () => {
  it('creates an agent with 201 and reads it back', async () => {
    const res = await create({ workspaceId: tenant.workspace.id, name: 'Ada', email: 'ada@studio.test', avatarUrl: 'https://a.example.com/ada.png' });
    assert.equal(res.status, 201);
    assert.match(res.body.id, /^agt_/);
    assert.deepEqual({ ...res.body, id: undefined, createdAt: undefined }, {
      id: undefined,
      workspaceId: tenant.workspace.id,
      name: 'Ada',
      email: 'ada@studio.test',
      avatarUrl: 'https://a.example.com/ada.png',
      createdAt: undefined,
    });
    assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
    const got = await api.request('GET', `/v1/agents/${res.body.id}`, { token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, res.body);

    const minimal = await create({ workspaceId: tenant.workspace.id, name: 'Bo' });
    assert.equal(minimal.status, 201);
    assert.equal(minimal.body.email, null);
    assert.equal(minimal.body.avatarUrl, null);
  });

  it('findAgent finds an agent only inside its workspace', async () => {
    const agent = (await create({ workspaceId: tenant.workspace.id, name: 'Finder' })).body;
    const row = await findAgent(api.deps.db, tenant.workspace.id, agent.id);
    assert.equal(row?.name, 'Finder');
    const other = await createWorkspace(api.deps.db, tenant.org);
    assert.equal(await findAgent(api.deps.db, other.id, agent.id), null);
  });

  it('infers the workspace from a workspace-bound key', async () => {
    const bound = await createApiKey(api.deps.db, tenant.org, { workspaceId: tenant.workspace.id, scopes: ['tickets:write'] });
    const res = await create({ name: 'Bound' }, bound.key);
    assert.equal(res.status, 201);
    assert.equal(res.body.workspaceId, tenant.workspace.id);
  });

  it('400 for bad input', async () => {
    const ws = tenant.workspace.id;
    for (const body of [
      {},
      { name: 'No workspace' },
      { workspaceId: ws },
      { workspaceId: ws, name: '' },
      { workspaceId: ws, name: '  ' },
      { workspaceId: ws, name: 'x'.repeat(201) },
      { workspaceId: ws, name: 'A', email: 'nope' },
      { workspaceId: ws, name: 'A', avatarUrl: 'not a url' },
      { workspaceId: ws, name: 'A', avatarUrl: 'javascript:alert(1)' },
      { workspaceId: ws, name: 'A', role: 'admin' },
    ]) {
      assertError(await create(body), 400, 'validation_error');
    }
    assert.equal((await create({ workspaceId: ws, name: 'x'.repeat(200) })).status, 201);
    assertError(await api.request('POST', '/v1/agents', { token, rawBody: '{"name":' }), 400, 'validation_error');
  });

  it('401, 403 for scope, sdk keys and foreign workspaces', async () => {
    const db = api.deps.db;
    const body = { workspaceId: tenant.workspace.id, name: 'Nope' };
    assertError(await api.request('POST', '/v1/agents', { body }), 401, 'unauthorized');
    const reader = await createApiKey(db, tenant.org, { scopes: ['tickets:read'] });
    assertError(await create(body, reader.key), 403, 'forbidden');
    const sdk = await createApiKey(db, tenant.org, { kind: 'sdk_', workspaceId: tenant.workspace.id, playerId: 'plr_1' });
    assertError(await create(body, sdk.key), 403, 'forbidden');
    assertError(await api.request('GET', `/v1/agents?workspaceId=${tenant.workspace.id}`, { token: sdk.key }), 403, 'forbidden');
    const other = await createTenant(db);
    assertError(await create(body, other.key.key), 403, 'forbidden');
    assertError(await api.request('GET', `/v1/agents?workspaceId=${tenant.workspace.id}`, { token: other.key.key }), 403, 'forbidden');
    const playersKey = await createApiKey(db, tenant.org, { scopes: ['players:read'] });
    assertError(await api.request('GET', `/v1/agents?workspaceId=${tenant.workspace.id}`, { token: playersKey.key }), 403, 'forbidden');
  });

  it('lists a workspace with pagination, oldest first', async () => {
    const t = await createTenant(api.deps.db);
    const names = ['A1', 'A2', 'A3'];
    for (const name of names) {
      assert.equal((await create({ workspaceId: t.workspace.id, name }, t.key.key)).status, 201);
    }
    const list = (q: string) => api.request('GET', `/v1/agents?workspaceId=${t.workspace.id}${q}`, { token: t.key.key });
    const all = await list('');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.map((a: any) => a.name), names);
    assert.deepEqual(all.body.pagination, { total: 3, limit: 25, offset: 0, hasMore: false });
    const first = await list('&limit=2');
    assert.deepEqual(first.body.data.map((a: any) => a.name), ['A1', 'A2']);
    assert.deepEqual(first.body.pagination, { total: 3, limit: 2, offset: 0, hasMore: true });
    const second = await list('&limit=2&offset=2');
    assert.deepEqual(second.body.data.map((a: any) => a.name), ['A3']);
    assert.equal(second.body.pagination.hasMore, false);
    for (const q of ['&limit=0', '&limit=101', '&offset=-1', '&limit=x']) assertError(await list(q), 400, 'validation_error');
    assertError(await api.request('GET', '/v1/agents', { token: t.key.key }), 400, 'validation_error');
  });

  it('404 agent_not_found for unknown, malformed and foreign ids', async () => {
    const agent = (await create({ workspaceId: tenant.workspace.id, name: 'Hidden' })).body;
    assertError(await api.request('GET', '/v1/agents/agt_00000000000000000000000000', { token }), 404, 'agent_not_found');
    assertError(await api.request('GET', '/v1/agents/whatever', { token }), 404, 'agent_not_found');
    const other = await createTenant(api.deps.db);
    assertError(await api.request('GET', `/v1/agents/${agent.id}`, { token: other.key.key }), 404, 'agent_not_found');
  });
});
