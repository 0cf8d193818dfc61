// /v1/webhooks over HTTP: who may register, read and change endpoints (scopes, other
// organizations and workspaces, sdk keys).
import assert from 'node:assert/strict';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { createApiKey, createTenant, createWorkspace } from '../support/factories';
import { createWebhook, fakeResolver, webhookBody } from '../support/webhook-api';

let api: TestApi;
let tenant: Tenant;
let token: string;
let ws: string;

beforeAll(async () => ({ api, tenant, token, ws } = await startTenantApi({ resolveHost: fakeResolver })));
afterAll(() => api.stop());

const post = (body: unknown, key = token) => api.request('POST', '/v1/webhooks', { token: key, body });
const valid = (over: Record<string, unknown> = {}) => webhookBody(ws, over);

describe('access', () => {
  it('401 without credentials; 403 without webhooks:manage; the scope alone (or admin:all) is enough', async () => {
    assertError(await api.request('POST', '/v1/webhooks', { body: valid() }), 401, 'unauthorized');
    assertError(await api.request('GET', `/v1/webhooks?workspaceId=${ws}`), 401, 'unauthorized');
    const reader = await createApiKey(api.deps.db, tenant.org, { scopes: ['tickets:read', 'tickets:write', 'players:write'] });
    const res = await post(valid(), reader.key);
    assertError(res, 403, 'forbidden');
    assert.match(res.body.error.message, /webhooks:manage/);
    assertError(await api.request('GET', `/v1/webhooks?workspaceId=${ws}`, { token: reader.key }), 403, 'forbidden');
    const manager = await createApiKey(api.deps.db, tenant.org, { scopes: ['webhooks:manage'] });
    const e = await createWebhook(api, manager.key, valid());
    assertError(await api.request('GET', `/v1/webhooks/${e.id}`, { token: reader.key }), 403, 'forbidden');
    assert.equal((await api.request('GET', `/v1/webhooks/${e.id}`, { token })).status, 200, 'admin:all implies it');
  });

  it("403 for another organization's workspace or one the key is not bound to; 404 for their endpoints", async () => {
    const other = await createTenant(api.deps.db);
    assertError(await post(valid({ workspaceId: other.workspace.id })), 403, 'forbidden');
    assertError(await api.request('GET', `/v1/webhooks?workspaceId=${other.workspace.id}`, { token }), 403, 'forbidden');
    const theirs = await createWebhook(api, other.key.key, valid({ workspaceId: other.workspace.id }));
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${theirs.id}`],
      ['PATCH', `/v1/webhooks/${theirs.id}`, { active: false }],
      ['DELETE', `/v1/webhooks/${theirs.id}`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries`],
      ['POST', `/v1/webhooks/${theirs.id}/test`, {}],
      ['POST', `/v1/webhooks/${theirs.id}/rotate-secret`],
    ] as const) {
      assertError(await api.request(method, path, { token, body }), 404, 'webhook_not_found');
    }
    const second = await createWorkspace(api.deps.db, tenant.org);
    const bound = await createApiKey(api.deps.db, tenant.org, { scopes: ['admin:all'], workspaceId: second.id });
    assertError(await post(valid(), bound.key), 403, 'forbidden');
  });

  it('403 for an sdk key, whatever it claims', async () => {
    const sdk = await createApiKey(api.deps.db, tenant.org, { kind: 'sdk_', workspaceId: ws, playerId: 'plr_1' });
    assertError(await post(valid(), sdk.key), 403, 'forbidden');
  });
});
