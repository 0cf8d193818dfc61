// No schema field checks for NUL characters (api/kit/fields.ts): the kit's input limits
// (api/kit/input-limits.ts) refuse a NUL in any body string and any query value with a
// 400 before routing, in the envelope of the API that was called. This file is the proof
// for each API, with authenticated callers so the refusal is not an authentication one.
import assert from 'node:assert/strict';
import { assertError, type TestApi } from '../support/api';
import { createTenant } from '../support/factories';
import { bearer, createApp, registerAccount, startPushApi } from '../support/push';

let api: TestApi;
let ticketingToken: string;
let workspaceId: string;
let pushToken: string;
let appId: string;

beforeAll(async () => {
  api = await startPushApi();
  const tenant = await createTenant(api.deps.db);
  ticketingToken = tenant.key.key;
  workspaceId = tenant.workspace.id;
  pushToken = (await registerAccount(api)).accessToken;
  appId = (await createApp(api, pushToken)).id;
});
afterAll(() => api?.stop());

const NUL_MESSAGE = 'must not contain NUL characters';

describe('ticketing (/v1)', () => {
  it('a NUL in a body field is 400 validation_error naming the field', async () => {
    for (const [path, body, field] of [
      ['/v1/players', { workspaceId, playerId: 'p-1', displayName: 'Ro\u0000bin' }, 'displayName'],
      ['/v1/agents', { workspaceId, name: 'Ada\u0000' }, 'name'],
      ['/v1/webhooks', { workspaceId, url: 'https://hooks.example.com/', description: 'x\u0000' }, 'description'],
    ] as const) {
      const res = await api.request('POST', path, { token: ticketingToken, body });
      assertError(res, 400, 'validation_error');
      assert.deepEqual(res.body.error.details, { [field]: [NUL_MESSAGE] }, path);
    }
  });

  it('a NUL in a query value is 400 validation_error', async () => {
    const res = await api.request('GET', `/v1/players/lookup?workspaceId=${workspaceId}&playerId=a%00b`, { token: ticketingToken });
    assertError(res, 400, 'validation_error');
    assert.deepEqual(res.body.error.details, { playerId: [NUL_MESSAGE] });
    assertError(await api.request('GET', `/v1/agents?workspaceId=ws%00`, { token: ticketingToken }), 400, 'validation_error');
  });
});

describe('push (/api/v1)', () => {
  const assertNulRefused = (res: { status: number; body: any }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(res.body.errors, { [field]: [NUL_MESSAGE] });
  };

  it('a NUL in a body field is 400 VALIDATION_FAILED naming the field', async () => {
    for (const [path, body, field] of [
      ['/api/v1/segments', { appId, name: 'US\u0000', filter: { operator: 'AND', conditions: [] } }, 'name'],
      ['/api/v1/campaigns', { appId, name: 'n', title: 't', body: 'b', targetType: 'All', deepLink: 'app://x\u0000' }, 'deepLink'],
    ] as const) {
      assertNulRefused(await api.request('POST', path, { headers: bearer(pushToken), body }), field);
    }
  });

  it('a NUL in a query value is 400 VALIDATION_FAILED', async () => {
    assertNulRefused(await api.request('GET', `/api/v1/segments?appId=${appId}%00`, { headers: bearer(pushToken) }), 'appId');
  });
});

describe('platform (/platform/v1)', () => {
  it('a NUL in a query value or a body is 400 validation_failed in the snake_case envelope', async () => {
    for (const res of [
      await api.request('GET', '/platform/v1/health?probe=a%00'),
      await api.request('POST', '/platform/v1/health', { body: { probe: 'a\u0000' } }),
    ]) {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'validation_failed');
      assert.match(res.body.error.request_id, /^req_/);
      assert.match(res.body.error.message, /NUL/);
    }
  });
});
