// Idempotency-Key on every POST (docs/api-kit.md, "Idempotency-Key"), including the answers that
// carry a one-time secret: replayed to the client, stored only sealed with the secret box.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';
import { fakeResolver } from '../support/webhook-api';

let api: TestApi;
let tenant: Tenant;

beforeAll(async () => ({ api, tenant } = await startTenantApi({ resolveHost: fakeResolver })));
afterAll(() => api.stop());

/** The stored replay row, as anyone reading the database sees it. */
async function storedRow(key: string) {
  const { rows } = await api.deps.db.query('SELECT api_key_id, status_code, response::text AS response FROM idempotency_keys WHERE key = $1', [key]);
  assert.equal(rows.length, 1);
  return rows[0];
}

async function replays(path: string, body: object, secretField: string, opts: { token?: string } = {}) {
  const key = `idem-${randomUUID()}`;
  const headers = { 'Idempotency-Key': key };
  const first = await api.request('POST', path, { token: opts.token, body, headers });
  assert.ok(first.status >= 200 && first.status < 300, JSON.stringify(first.body));
  assert.equal(first.headers.get('cache-control'), 'no-store');
  const secret = first.body[secretField];
  assert.equal(typeof secret, 'string');

  const again = await api.request('POST', path, { token: opts.token, body, headers });
  assert.equal(again.status, first.status);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.headers.get('cache-control'), 'no-store');
  assert.deepEqual(again.body, first.body, 'the same answer, secret included');

  const row = await storedRow(key);
  assert.ok(!row.response.includes(secret), 'the secret is not in the database in the clear');
  assert.match(row.response, /"\$sealed": ?"v1:/);

  const other = await api.request('POST', path, { token: opts.token, body: { ...body, name: 'another body' }, headers });
  assertError(other, 409, 'idempotency_key_reused');
  return first.body;
}

test('POST /v1/webhooks with Idempotency-Key: one endpoint, its secret replayed, stored sealed', async () => {
  const body = { workspaceId: tenant.workspace.id, url: 'https://hooks.example.com/idem', events: ['ticket.created'] };
  const created = await replays('/v1/webhooks', body, 'secret', { token: tenant.key.key });
  const list = await api.request('GET', `/v1/webhooks?workspaceId=${tenant.workspace.id}`, { token: tenant.key.key });
  assert.equal(list.body.data.filter((e: { url: string }) => e.url === 'https://hooks.example.com/idem').length, 1, 'created once');
  assert.match(created.secret, /^whsec_/);
});

test('POST /v1/organizations/{id}/api-keys with Idempotency-Key: one key, replayed with its secret, stored sealed', async () => {
  const created = await replays(`/v1/organizations/${tenant.org.id}/api-keys`, { name: `idem key ${randomUUID()}`, scopes: ['tickets:read'] }, 'key', {
    token: tenant.key.key,
  });
  // the replayed key works: it is the one that was created
  const me = await api.request('GET', '/v1/auth/me', { token: created.key });
  assert.equal(me.status, 200);
  assert.equal(me.body.id, created.id);
});

test('POST /v1/auth/token (public) with Idempotency-Key: the token is replayed, stored sealed', async () => {
  const key = `idem-${randomUUID()}`;
  const body = { apiKey: tenant.key.key, organizationId: tenant.org.id };
  const first = await api.request('POST', '/v1/auth/token', { body, headers: { 'Idempotency-Key': key } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const again = await api.request('POST', '/v1/auth/token', { body, headers: { 'Idempotency-Key': key } });
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body.accessToken, first.body.accessToken);
  const row = await storedRow(key);
  assert.match(row.api_key_id, /^ip:/);
  assert.ok(!row.response.includes(first.body.accessToken));
});

test('an answer without a secret is stored as it is, and Idempotency-Key over 255 characters is a 400', async () => {
  const res = await api.request('POST', '/v1/agents', {
    token: tenant.key.key,
    body: { workspaceId: tenant.workspace.id, name: 'Idem Agent', email: `idem.${randomUUID()}@agents.test` },
    headers: { 'Idempotency-Key': 'x'.repeat(256) },
  });
  assertError(res, 400, 'validation_error');
});
