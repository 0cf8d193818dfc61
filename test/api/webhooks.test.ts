// /v1/webhooks over HTTP: register, list, get, patch, delete; validation and limits (access: webhooks-access.test.ts).
import assert from 'node:assert/strict';
import { masterKey } from '../../lib/crypto/master-key';
import { decryptSecret } from '../../lib/crypto/secret-box';
import { isEndpointSecret } from '../../lib/webhooks/signing';
import { assertError, startApi, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { createApiKey, createOrganization, createWorkspace } from '../support/factories';
import { createWebhook, fakeResolver, webhookBody } from '../support/webhook-api';

let api: TestApi;
let tenant: Tenant;
let token: string;
let ws: string;

beforeAll(async () => ({ api, tenant, token, ws } = await startTenantApi({ resolveHost: fakeResolver })));
afterAll(() => api.stop());

const post = (body: unknown, key = token, headers?: Record<string, string>) => api.request('POST', '/v1/webhooks', { token: key, body, headers });
const valid = (over: Record<string, unknown> = {}) => webhookBody(ws, over);

describe('POST /v1/webhooks', () => {
  it('201 with the endpoint and a whsec_ secret; duplicates collapse; defaults apply; the secret is stored encrypted', async () => {
    const res = await post(valid({ url: 'https://hooks.example.com/support#frag', events: ['ticket.created', 'sla.breached', 'ticket.created'] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const e = res.body;
    assert.match(e.id, /^wh_[0-9a-z]{26}$/);
    assert.deepEqual(Object.keys(e).sort(), ['active', 'createdAt', 'description', 'events', 'id', 'secret', 'testMode', 'updatedAt', 'url', 'workspaceId']);
    assert.equal(e.workspaceId, ws);
    assert.equal(e.url, 'https://hooks.example.com/support', 'normalised, fragment dropped');
    assert.deepEqual(e.events, ['ticket.created', 'sla.breached']);
    assert.equal(e.description, '');
    assert.equal(e.active, true);
    assert.equal(e.testMode, false);
    assert.ok(isEndpointSecret(e.secret), e.secret);
    assert.ok(Math.abs(Date.parse(e.createdAt) - Date.now()) < 60_000);

    const { rows } = await api.deps.db.query('SELECT * FROM webhook_endpoints WHERE id = $1', [e.id]);
    const row = rows[0];
    assert.ok(!JSON.stringify(row).includes(e.secret), 'the plaintext secret is nowhere in the row');
    assert.ok(!JSON.stringify(row).includes(e.secret.slice('whsec_'.length)));
    assert.match(row.secret_box, /^v1:/);
    const key = masterKey(api.deps.config);
    assert.equal(decryptSecret(key, row.secret_box, e.id), e.secret, 'opens with the endpoint id as context');
    assert.throws(() => decryptSecret(key, row.secret_box, 'wh_other'), /failed authentication/);
  });

  it('keeps description and active as given; each endpoint gets its own secret', async () => {
    const a = await createWebhook(api, token, valid({ description: 'Discord bridge', active: false }));
    const b = await createWebhook(api, token, valid());
    assert.equal(a.description, 'Discord bridge');
    assert.equal(a.active, false);
    assert.notEqual(a.secret, b.secret);
  });

  it('accepts http://127.0.0.1 only because the test switch (WEBHOOK_ALLOW_LOOPBACK=1) is on', async () => {
    assert.equal(api.deps.config.webhookAllowLoopback, true);
    const e = await createWebhook(api, token, valid({ url: 'http://127.0.0.1:9/hook' }));
    assert.equal(e.url, 'http://127.0.0.1:9/hook');
  });

  it('with the switch off, as in production, loopback and plain http are refused with a 400', async () => {
    const prod = await startApi({ WEBHOOK_ALLOW_LOOPBACK: '0' }, { resolveHost: fakeResolver });
    try {
      assert.equal(prod.deps.config.webhookAllowLoopback, false);
      for (const [url, reason] of [
        ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
        ['https://[::1]/hook', /loopback/],
        ['https://localhost/hook', /localhost/],
        ['http://127.0.0.1:8080/hook', /https/i],
        ['http://hooks.example.com/support', /https/i],
      ] as const) {
        const res = await prod.request('POST', '/v1/webhooks', { token, body: valid({ url }) });
        assertError(res, 400, 'validation_error');
        assert.match(res.body.error.message, reason, url);
      }
    } finally {
      await prod.stop();
    }
  });

  const rejected: Array<[string, Record<string, unknown>, RegExp]> = [
    ['workspaceId missing', { workspaceId: undefined }, /workspaceId: Required/],
    ['url missing', { url: undefined }, /url: Required/],
    ['events missing', { events: undefined }, /events: Required/],
    ['events empty', { events: [] }, /events: must list at least one event type/],
    ['events not an array', { events: 'ticket.created' }, /events: must be an array/],
    ['wildcard', { events: ['*'] }, /events\.0: wildcard '\*' is not supported; subscribe to each event type explicitly/],
    ['unknown event type', { events: ['ticket.created', 'ticket.updated'] }, /events\.1: unknown event type 'ticket\.updated'/],
    ['plain http to a public host', { url: 'http://hooks.example.com/x' }, /HTTPS/],
    ['private 10/8', { url: 'https://10.0.0.1/hook' }, /publicly reachable: 10\.0\.0\.1 is a private address/],
    ['cloud metadata', { url: 'https://169.254.169.254/latest/meta-data' }, /publicly reachable: 169\.254\.169\.254/],
    ['private 192.168/16', { url: 'https://192.168.1.20/hook' }, /publicly reachable: 192\.168\.1\.20 is a private address/],
    ['a name resolving to a private address', { url: 'https://internal.example.com/hook' }, /internal\.example\.com resolves to 10\.1\.2\.3/],
    ['a name with one private address among public ones', { url: 'https://mixed.example.com/hook' }, /resolves to 192\.168\.1\.10/],
    ['not a URL', { url: 'hooks.example.com' }, /not a valid absolute URL/],
    ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/x' }, /credentials/],
    ['description too long', { description: 'x'.repeat(501) }, /description: must be at most 500 characters/],
    ['active not a boolean', { active: 'yes' }, /active: must be true or false/],
    ['unknown field', { secret: 'whsec_mine' }, /Unrecognized key/],
    ['NUL in the url', { url: 'https://hooks.example.com/\u0000' }, /url: must not contain NUL/],
  ];
  for (const [name, over, message] of rejected) {
    it(`400 validation_error: ${name}`, async () => {
      const res = await post(valid(over));
      assertError(res, 400, 'validation_error');
      assert.match(res.body.error.message, message);
    });
  }

  it('201 for a name that does not resolve yet (the README walk-through on a machine without its DNS)', async () => {
    const e = await createWebhook(api, token, valid({ url: 'https://not-yet.example.com/support' }));
    assert.equal(e.url, 'https://not-yet.example.com/support');
    const res = await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { url: 'https://still-not.example.com/x' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await api.request('DELETE', `/v1/webhooks/${e.id}`, { token })).status, 204);
  });

  it("201 for the README walk-through's URL with this machine's own resolver, whatever its DNS answers", async () => {
    const osDns = await startApi(); // no resolveHost override: the OS resolver
    try {
      const res = await osDns.request('POST', '/v1/webhooks', { token, body: valid({ url: 'https://hooks.example.com/support' }) });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal((await osDns.request('DELETE', `/v1/webhooks/${res.body.id}`, { token })).status, 204);
    } finally {
      await osDns.stop();
    }
  });

  it('400 for a body that is not an object', async () => {
    assertError(await api.request('POST', '/v1/webhooks', { token, rawBody: '[1]' }), 400, 'validation_error');
  });

  it(`409 webhook_limit_reached past 20 endpoints per workspace; deleting one makes room`, async () => {
    const org = await createOrganization(api.deps.db);
    const w = await createWorkspace(api.deps.db, org);
    const key = (await createApiKey(api.deps.db, org, { scopes: ['webhooks:manage'] })).key;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await createWebhook(api, key, valid({ workspaceId: w.id }))).id);
    assertError(await post(valid({ workspaceId: w.id }), key), 409, 'webhook_limit_reached');
    assert.equal((await api.request('DELETE', `/v1/webhooks/${ids[0]}`, { token: key })).status, 204);
    await createWebhook(api, key, valid({ workspaceId: w.id }));
  });
});

describe('GET /v1/webhooks and GET /v1/webhooks/{id}', () => {
  it('lists the workspace’s live endpoints oldest first, without secrets; 400 without workspaceId', async () => {
    const org = await createOrganization(api.deps.db);
    const w = await createWorkspace(api.deps.db, org);
    const key = (await createApiKey(api.deps.db, org)).key;
    const a = await createWebhook(api, key, valid({ workspaceId: w.id, description: 'a' }));
    const b = await createWebhook(api, key, valid({ workspaceId: w.id, description: 'b', events: ['player.created'] }));
    const c = await createWebhook(api, key, valid({ workspaceId: w.id, description: 'c' }));
    assert.equal((await api.request('DELETE', `/v1/webhooks/${b.id}`, { token: key })).status, 204);
    const res = await api.request('GET', `/v1/webhooks?workspaceId=${w.id}`, { token: key });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 2);
    assert.deepEqual(res.body.data.map((e: any) => e.id), [a.id, c.id]);
    const { secret, ...withoutSecret } = a;
    assert.ok(secret);
    assert.deepEqual(res.body.data[0], withoutSecret);
    assertError(await api.request('GET', '/v1/webhooks', { token: key }), 400, 'validation_error');
  });

  it('gets one without its secret; 404 webhook_not_found for unknown or malformed ids', async () => {
    const e = await createWebhook(api, token, valid());
    const res = await api.request('GET', `/v1/webhooks/${e.id}`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.secret, undefined);
    assert.equal(res.body.id, e.id);
    assertError(await api.request('GET', '/v1/webhooks/wh_00000000000000000000000000', { token }), 404, 'webhook_not_found');
    assertError(await api.request('GET', `/v1/webhooks/${encodeURIComponent("wh_x' OR 1=1")}`, { token }), 404, 'webhook_not_found');
  });
});

describe('PATCH /v1/webhooks/{id}', () => {
  it('changes the given fields only, moves updatedAt, keeps createdAt and the secret', async () => {
    const e = await createWebhook(api, token, valid({ description: 'old' }));
    const before = (await api.deps.db.query('SELECT secret_box FROM webhook_endpoints WHERE id = $1', [e.id])).rows[0].secret_box;
    await new Promise((r) => setTimeout(r, 10));
    const res = await api.request('PATCH', `/v1/webhooks/${e.id}`, {
      token,
      body: { events: ['message.created', 'message.created', 'ticket.closed'], active: false },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.events, ['message.created', 'ticket.closed']);
    assert.equal(res.body.active, false);
    assert.equal(res.body.description, 'old');
    assert.equal(res.body.url, e.url);
    assert.equal(res.body.createdAt, e.createdAt);
    assert.ok(Date.parse(res.body.updatedAt) > Date.parse(e.updatedAt));
    assert.equal(res.body.secret, undefined);
    const after = (await api.deps.db.query('SELECT secret_box, updated_at FROM webhook_endpoints WHERE id = $1', [e.id])).rows[0];
    assert.equal(after.secret_box, before);
    assert.equal(after.updated_at.toISOString(), res.body.updatedAt);

    const resumed = await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { active: true, url: 'https://hooks.example.com/v2', description: '' } });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.active, true);
    assert.equal(resumed.body.url, 'https://hooks.example.com/v2');
    assert.equal(resumed.body.description, '');
  });

  it("a pause by hand records paused_at and reason 'manual'; resuming clears them (the platform API shows them)", async () => {
    const e = await createWebhook(api, token, valid());
    const pauseOf = async () => (await api.deps.db.query('SELECT paused_at, paused_reason FROM webhook_endpoints WHERE id = $1', [e.id])).rows[0];
    assert.deepEqual(await pauseOf(), { paused_at: null, paused_reason: null });
    assert.equal((await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { active: false } })).status, 200);
    const paused = await pauseOf();
    assert.equal(paused.paused_reason, 'manual');
    assert.ok(paused.paused_at instanceof Date);
    assert.equal((await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { description: 'still paused' } })).status, 200);
    assert.deepEqual(await pauseOf(), paused, 'a PATCH that does not touch active leaves the pause as it was');
    assert.equal((await api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body: { active: true } })).status, 200);
    assert.deepEqual(await pauseOf(), { paused_at: null, paused_reason: null });
  });

  it('400 for an empty body, unknown fields and the same rules as registration', async () => {
    const e = await createWebhook(api, token, valid());
    const patch = (body: unknown) => api.request('PATCH', `/v1/webhooks/${e.id}`, { token, body });
    const cases: Array<[unknown, RegExp]> = [
      [{}, /at least one of url, events, description, active, testMode/],
      [{ workspaceId: ws }, /Unrecognized key/],
      [{ events: [] }, /at least one event type/],
      [{ events: ['*'] }, /wildcard/],
      [{ url: 'http://hooks.example.com/x' }, /HTTPS/],
      [{ url: 'https://internal.example.com/x' }, /resolves to 10\.1\.2\.3/],
      [{ active: null }, /active/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(body);
      assertError(res, 400, 'validation_error');
      assert.match(res.body.error.message, message, JSON.stringify(body));
    }
    assert.equal((await api.request('GET', `/v1/webhooks/${e.id}`, { token })).body.url, e.url, 'nothing changed');
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('204, soft: the row stays with deleted_at, and the endpoint is 404 everywhere afterwards', async () => {
    const e = await createWebhook(api, token, valid());
    const res = await api.request('DELETE', `/v1/webhooks/${e.id}`, { token });
    assert.equal(res.status, 204);
    assert.equal(res.body, undefined);
    const { rows } = await api.deps.db.query('SELECT deleted_at FROM webhook_endpoints WHERE id = $1', [e.id]);
    assert.ok(rows[0].deleted_at instanceof Date);
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${e.id}`],
      ['PATCH', `/v1/webhooks/${e.id}`, { active: false }],
      ['DELETE', `/v1/webhooks/${e.id}`],
      ['GET', `/v1/webhooks/${e.id}/deliveries`],
      ['POST', `/v1/webhooks/${e.id}/test`, {}],
      ['POST', `/v1/webhooks/${e.id}/deliveries/evt_00000000000000000000000000/redeliver`],
    ] as const) {
      assertError(await api.request(method, path, { token, body }), 404, 'webhook_not_found');
    }
    const list = await api.request('GET', `/v1/webhooks?workspaceId=${ws}`, { token });
    assert.ok(!list.body.data.some((x: any) => x.id === e.id));
  });
});

describe('OpenAPI', () => {
  it('documents every /v1/webhooks path', async () => {
    const doc = (await api.request('GET', '/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/webhooks', 'post'],
      ['/v1/webhooks', 'get'],
      ['/v1/webhooks/{id}', 'get'],
      ['/v1/webhooks/{id}', 'patch'],
      ['/v1/webhooks/{id}', 'delete'],
      ['/v1/webhooks/{id}/deliveries', 'get'],
      ['/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', 'post'],
      ['/v1/webhooks/{id}/test', 'post'],
      ['/v1/webhooks/{id}/rotate-secret', 'post'],
    ]) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
    assert.deepEqual(doc.components.schemas.CreateWebhook.properties.events.items.enum.length, 7);
  });
});
