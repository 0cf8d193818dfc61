// POST /v1/webhooks/{id}/rotate-secret over HTTP, in the ticketing API's conventions
// (camelCase, webhooks:manage, its error codes): the new secret once, the end of the 24 h
// during which the replaced one still signs, the old secret kept sealed as the previous.
// What the deliveries carry: test/db/webhook-secret-rotation.test.ts and the platform
// end-to-end test (test/api/platform-webhooks-delivery.test.ts), the same engine.
import assert from 'node:assert/strict';
import { masterKey } from '../../lib/crypto/master-key';
import { decryptSecret } from '../../lib/crypto/secret-box';
import { isEndpointSecret } from '../../lib/webhooks/signing';
import { assertError, startApi, type TestApi } from '../support/api';
import { createApiKey, createTenant, type Tenant } from '../support/factories';
import { createWebhook, fakeResolver, webhookBody } from '../support/webhook-api';

let api: TestApi;
let tenant: Tenant;
let at: Date | null = null; // the API's clock when a test stands somewhere

beforeAll(async () => {
  api = await startApi({}, { resolveHost: fakeResolver, clock: () => at ?? new Date() });
  tenant = await createTenant(api.deps.db);
});
afterAll(() => api?.stop());

const rotate = (id: string, token = tenant.key.key) => api.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token });

test('answers the endpoint with a new secret (no-store) and previousSecretExpiresAt 24 h on; the old secret is the sealed previous', async () => {
  const e = await createWebhook(api, tenant.key.key, webhookBody(tenant.workspace.id));
  at = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
  const res = await rotate(e.id);
  const expires = new Date(at.getTime() + 24 * 3_600_000).toISOString();
  at = null;
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['id', 'workspaceId', 'url', 'events', 'description', 'active', 'testMode', 'secret', 'previousSecretExpiresAt', 'createdAt', 'updatedAt']);
  assert.ok(isEndpointSecret(res.body.secret));
  assert.notEqual(res.body.secret, e.secret);
  assert.equal(res.body.previousSecretExpiresAt, expires);
  assert.match(res.headers.get('cache-control') ?? '', /no-store/);
  const { rows } = await api.deps.db.query('SELECT secret_box, previous_secret_box FROM webhook_endpoints WHERE id = $1', [e.id]);
  const key = masterKey(api.deps.config);
  assert.equal(decryptSecret(key, rows[0].secret_box, e.id), res.body.secret);
  assert.equal(decryptSecret(key, rows[0].previous_secret_box, e.id), e.secret);
  const shown = await api.request('GET', `/v1/webhooks/${e.id}`, { token: tenant.key.key });
  assert.equal(shown.body.secret, undefined);
});

test('needs webhooks:manage; a deleted or unknown endpoint is webhook_not_found', async () => {
  const e = await createWebhook(api, tenant.key.key, webhookBody(tenant.workspace.id));
  const reader = await createApiKey(api.deps.db, tenant.org, { scopes: ['tickets:read'] });
  assertError(await rotate(e.id, reader.key), 403, 'forbidden');
  assert.equal((await api.request('DELETE', `/v1/webhooks/${e.id}`, { token: tenant.key.key })).status, 204);
  assertError(await rotate(e.id), 404, 'webhook_not_found');
  assertError(await rotate('wh_nothing'), 404, 'webhook_not_found');
});
