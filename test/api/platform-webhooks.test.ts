// /platform/v1/webhooks over HTTP: register (the secret once), list, read, change, pause
// and resume, delete, rotate the secret; who may (admins), which workspace (the token's
// reach), the URL policy and the event types; the delivery log's shape.
import assert from 'node:assert/strict';
import { insertAttempt, insertLoggedDelivery } from '../support/webhook-factories';
import { createWebhook as createV1Webhook, fakeResolver } from '../support/webhook-api';
import { startTenantApi, type TestApi } from '../support/api';
import { assertPlatformError, platformMember, platformTenant, startPlatformApi } from '../support/platform';
import { createPlatformWorkspace } from '../../domain/platform/create-workspace';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { PLATFORM_EVENT_TYPES } from '../../domain/platform/webhook-events';
import { masterKey } from '../../lib/crypto/master-key';
import { decryptSecret } from '../../lib/crypto/secret-box';

let api: TestApi;
let now: Date | null = null; // the API's clock: the system's unless a test stands somewhere

beforeAll(async () => {
  api = await startPlatformApi({}, { resolveHost: fakeResolver, clock: () => now ?? new Date() });
});
afterAll(() => api?.stop());

const body = (over: Record<string, unknown> = {}) => ({ url: 'https://hooks.example.com/support', events: ['ticket.created', 'ticket.resolved'], ...over });
const post = (token: string, b: unknown, headers?: Record<string, string>) => api.request('POST', '/platform/v1/webhooks', { token, body: b, headers });
async function registered(t: PlatformTenant, over: Record<string, unknown> = {}) {
  const res = await post(t.adminToken, body(over));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('POST /platform/v1/webhooks', () => {
  it("an endpoint belongs to its token's environment: the other environment's tokens neither list nor reach it", async () => {
    const t = await platformTenant(api);
    const live = await platformMember(api, t, 'admin', { environment: 'live' });
    const testOne = (await post(t.adminToken, body())).body;
    const liveOne = await post(live.token, body());
    assert.equal(liveOne.status, 201, JSON.stringify(liveOne.body));
    assert.equal(liveOne.body.environment, 'live');
    const listed = async (token: string) => (await api.request('GET', '/platform/v1/webhooks', { token })).body.data.map((w: { id: string }) => w.id);
    assert.deepEqual(await listed(t.adminToken), [testOne.id]);
    assert.deepEqual(await listed(live.token), [liveOne.body.id]);
    assertPlatformError(await api.request('GET', `/platform/v1/webhooks/${liveOne.body.id}`, { token: t.adminToken }), 404, 'not_found');
    assertPlatformError(await api.request('DELETE', `/platform/v1/webhooks/${testOne.id}`, { token: live.token }), 404, 'not_found');
  });

  it('registers an endpoint of the token workspace: snake_case, the secret only here, no-store', async () => {
    const t = await platformTenant(api);
    const res = await post(t.adminToken, body({ description: 'Helpdesk sync' }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const w = res.body;
    assert.match(w.id, /^wh_/);
    assert.deepEqual(Object.keys(w), ['id', 'workspace_id', 'environment', 'url', 'events', 'description', 'active', 'paused_reason', 'paused_at', 'secret', 'created_at', 'updated_at']);
    assert.equal(w.workspace_id, t.workspaceId);
    assert.equal(w.environment, 'test', "the registering token's environment");
    assert.deepEqual(w.events, ['ticket.created', 'ticket.resolved']);
    assert.equal(w.active, true);
    assert.equal(w.paused_reason, null);
    assert.equal(w.paused_at, null);
    assert.match(w.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.match(res.headers.get('cache-control') ?? '', /no-store/);
    const got = await api.request('GET', `/platform/v1/webhooks/${w.id}`, { token: t.adminToken });
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined, 'the secret is never shown again');
    const { rows } = await api.deps.db.query('SELECT api FROM webhook_endpoints WHERE id = $1', [w.id]);
    assert.equal(rows[0].api, 'platform');
  });

  it('an Idempotency-Key replay answers the same endpoint and secret, and registers one endpoint', async () => {
    const t = await platformTenant(api);
    const headers = { 'idempotency-key': `wh-${Date.now()}` };
    const first = await post(t.adminToken, body(), headers);
    const again = await post(t.adminToken, body(), headers);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual([again.body.id, again.body.secret], [first.body.id, first.body.secret]);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const { rows } = await api.deps.db.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE workspace_id = $1', [t.workspaceId]);
    assert.equal(rows[0].n, 1);
    const stored = await api.deps.db.query('SELECT response::text AS response FROM idempotency_keys WHERE key = $1', [headers['idempotency-key']]);
    assert.equal(stored.rows.length, 1);
    assert.ok(!stored.rows[0].response.includes(first.body.secret), 'the secret is stored sealed only');

    // a replayed rotation answers the same new secret and does not rotate again
    const rotateHeaders = { 'idempotency-key': `rot-${Date.now()}` };
    const rotate = () => api.request('POST', `/platform/v1/webhooks/${first.body.id}/rotate-secret`, { token: t.adminToken, headers: rotateHeaders });
    const r1 = await rotate();
    const r2 = await rotate();
    assert.equal(r1.status, 200);
    assert.deepEqual([r2.status, r2.body.secret], [200, r1.body.secret]);
    const row = (await api.deps.db.query('SELECT secret_box, previous_secret_box FROM webhook_endpoints WHERE id = $1', [first.body.id])).rows[0];
    assert.equal(decryptSecret(masterKey(api.deps.config), row.secret_box, first.body.id), r1.body.secret);
    assert.equal(decryptSecret(masterKey(api.deps.config), row.previous_secret_box, first.body.id), first.body.secret, 'rotated once');
  });

  it('takes exactly the platform event types: none, a wildcard, an unknown or a /v1-only type is a 400', async () => {
    const t = await platformTenant(api);
    const all = await registered(t, { events: [...PLATFORM_EVENT_TYPES, 'ticket.created'] });
    assert.deepEqual(all.events, [...PLATFORM_EVENT_TYPES], 'duplicates collapse');
    for (const events of [[], ['*'], ['ticket.exploded'], ['message.created'], 'ticket.created']) {
      const res = await post(t.adminToken, body({ events }));
      assertPlatformError(res, 400, 'validation_failed');
    }
    const wildcard = await post(t.adminToken, body({ events: ['*'] }));
    assert.match(JSON.stringify(wildcard.body.error.details), /wildcard '\*' is not supported/);
  });

  it('HTTPS to public addresses only, as on /v1: http and private hosts are 400s (a name not resolving yet is taken); unknown fields too', async () => {
    const t = await platformTenant(api);
    assert.equal((await post(t.adminToken, body({ url: 'https://nowhere.example.com/x' }))).status, 201);
    for (const url of ['http://hooks.example.com/x', 'https://internal.example.com/x', 'https://mixed.example.com/x', 'https://10.0.0.1/x', 'not a url']) {
      assertPlatformError(await post(t.adminToken, body({ url })), 400, 'validation_failed');
    }
    assertPlatformError(await post(t.adminToken, body({ secret: 'whsec_mine' })), 400, 'validation_failed');
  });

  it('admins only: an agent or a manager is refused (403); a workspace out of reach is a 404', async () => {
    const t = await platformTenant(api);
    assertPlatformError(await post(t.agentToken, body()), 403, 'forbidden');
    const manager = await platformMember(api, t, 'manager');
    assertPlatformError(await post(manager.token, body()), 403, 'forbidden');
    assertPlatformError(await api.request('GET', '/platform/v1/webhooks', { token: t.agentToken }), 403, 'forbidden');

    const other = await platformTenant(api);
    assertPlatformError(await post(t.adminToken, body({ workspace_id: other.workspaceId })), 404, 'not_found');
    // an admin who is not an organisation admin reaches only the token's workspace
    const second = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: t.organizationId, name: 'Second', now: new Date() }));
    const admin = await platformMember(api, t, 'admin');
    assertPlatformError(await post(admin.token, body({ workspace_id: second.workspace.id })), 404, 'not_found');
    const own = await post(admin.token, body());
    assert.equal(own.status, 201);
    // the organisation admin reaches every workspace of the organisation
    const there = await registered(t, { workspace_id: second.workspace.id });
    assert.equal(there.workspace_id, second.workspace.id);
    assertPlatformError(await api.request('GET', `/platform/v1/webhooks/${there.id}`, { token: admin.token }), 404, 'not_found');
    assertPlatformError(await api.request('GET', `/platform/v1/webhooks/${there.id}`, { token: other.adminToken }), 404, 'not_found');
  });
});

describe('GET, PATCH, DELETE /platform/v1/webhooks/{id}', () => {
  it('lists in the platform list shape, oldest first, paged', async () => {
    const t = await platformTenant(api);
    const ids = [(await registered(t)).id, (await registered(t)).id, (await registered(t)).id];
    const page1 = await api.request('GET', '/platform/v1/webhooks?per_page=2', { token: t.adminToken });
    assert.equal(page1.status, 200);
    assert.deepEqual(Object.keys(page1.body), ['data', 'page', 'per_page', 'total', 'next_page']);
    assert.deepEqual(page1.body.data.map((w: any) => w.id), ids.slice(0, 2));
    assert.equal(page1.body.total, 3);
    assert.match(page1.body.next_page, /page=2/);
    const page2 = await api.request('GET', new URL(page1.body.next_page).pathname + new URL(page1.body.next_page).search, { token: t.adminToken });
    assert.deepEqual(page2.body.data.map((w: any) => w.id), ids.slice(2));
    assert.equal(page2.body.next_page, null);
    assertPlatformError(await api.request('GET', '/platform/v1/webhooks?per_page=101', { token: t.adminToken }), 400, 'validation_failed');
  });

  it('pauses by hand (active false, paused_reason manual, paused_at) and resumes; changes url and events under the same rules', async () => {
    const t = await platformTenant(api);
    const w = await registered(t);
    const path = `/platform/v1/webhooks/${w.id}`;
    const paused = await api.request('PATCH', path, { token: t.adminToken, body: { active: false } });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.active, false);
    assert.equal(paused.body.paused_reason, 'manual');
    assert.ok(!Number.isNaN(Date.parse(paused.body.paused_at)));
    const resumed = await api.request('PATCH', path, { token: t.adminToken, body: { active: true, events: ['ticket.closed'] } });
    assert.equal(resumed.body.active, true);
    assert.equal(resumed.body.paused_reason, null);
    assert.equal(resumed.body.paused_at, null);
    assert.deepEqual(resumed.body.events, ['ticket.closed']);
    assertPlatformError(await api.request('PATCH', path, { token: t.adminToken, body: { url: 'http://hooks.example.com/x' } }), 400, 'validation_failed');
    assertPlatformError(await api.request('PATCH', path, { token: t.adminToken, body: {} }), 400, 'validation_failed');
    assertPlatformError(await api.request('PATCH', path, { token: t.agentToken, body: { active: false } }), 403, 'forbidden');
  });

  it('deletes (204), then the endpoint is a 404 everywhere; a /v1 endpoint id and a malformed id are 404s', async () => {
    const t = await platformTenant(api);
    const w = await registered(t);
    assert.equal((await api.request('DELETE', `/platform/v1/webhooks/${w.id}`, { token: t.adminToken })).status, 204);
    for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/rotate-secret'], ['GET', '/deliveries']] as const) {
      const res = await api.request(method, `/platform/v1/webhooks/${w.id}${suffix}`, { token: t.adminToken, body: method === 'PATCH' ? { active: true } : undefined });
      assertPlatformError(res, 404, 'not_found');
    }
    assertPlatformError(await api.request('GET', '/platform/v1/webhooks/nope', { token: t.adminToken }), 404, 'not_found');
    const ticketing = await startTenantApi({ resolveHost: fakeResolver });
    try {
      const v1 = await createV1Webhook(ticketing.api, ticketing.token, { workspaceId: ticketing.ws, url: 'https://hooks.example.com/v1', events: ['ticket.created'] });
      assertPlatformError(await api.request('GET', `/platform/v1/webhooks/${v1.id}`, { token: t.adminToken }), 404, 'not_found');
    } finally {
      await ticketing.api.stop();
    }
  });
});

describe('POST /platform/v1/webhooks/{id}/rotate-secret', () => {
  it('answers a new secret once (no-store) with the end of the 24 h; the old one is kept sealed as the previous', async () => {
    const t = await platformTenant(api);
    const w = await registered(t);
    now = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000); // an hour ahead, whole seconds
    const expires = new Date(now.getTime() + 24 * 3_600_000).toISOString();
    const res = await api.request('POST', `/platform/v1/webhooks/${w.id}/rotate-secret`, { token: t.adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.secret, /^whsec_/);
    assert.notEqual(res.body.secret, w.secret);
    now = null;
    assert.equal(res.body.previous_secret_expires_at, expires);
    assert.equal(res.body.id, w.id);
    assert.match(res.headers.get('cache-control') ?? '', /no-store/);
    const { rows } = await api.deps.db.query('SELECT secret_box, previous_secret_box, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1', [w.id]);
    assert.ok(rows[0].previous_secret_box && rows[0].previous_secret_box !== rows[0].secret_box);
    assert.equal(rows[0].previous_secret_expires_at.toISOString(), expires);
    assertPlatformError(await api.request('POST', `/platform/v1/webhooks/${w.id}/rotate-secret`, { token: t.agentToken }), 403, 'forbidden');
  });
});

describe('GET /platform/v1/webhooks/{id}/deliveries', () => {
  it('lists the log newest first in the platform list shape, each delivery with every attempt, snake_case; filters by status', async () => {
    const t = await platformTenant(api);
    const w = await registered(t);
    const older = await insertLoggedDelivery(api.deps.db, { endpointId: w.id, workspaceId: t.workspaceId, status: 'failed', attempts: 2, createdAt: new Date(Date.now() - 60_000) });
    await insertAttempt(api.deps.db, older, { attempt: 1, statusCode: 500, latencyMs: 12, error: 'HTTP 500' });
    await insertAttempt(api.deps.db, older, { attempt: 2, statusCode: null, latencyMs: 30_000, error: 'timeout' });
    const newer = await insertLoggedDelivery(api.deps.db, { endpointId: w.id, workspaceId: t.workspaceId, status: 'succeeded' });
    const res = await api.request('GET', `/platform/v1/webhooks/${w.id}/deliveries`, { token: t.adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.total, 2);
    assert.deepEqual(res.body.data.map((d: any) => d.id), [newer, older]);
    const d = res.body.data[1];
    assert.deepEqual(Object.keys(d), ['id', 'event', 'status', 'attempts', 'created_at', 'completed_at', 'payload', 'attempt_log']);
    assert.deepEqual(d.attempt_log.map((a: any) => [a.attempt, a.status_code, a.error]), [[1, 500, 'HTTP 500'], [2, null, 'timeout']]);
    assert.deepEqual(Object.keys(d.attempt_log[0]), ['attempt', 'scheduled_at', 'started_at', 'status_code', 'latency_ms', 'error']);
    const failed = await api.request('GET', `/platform/v1/webhooks/${w.id}/deliveries?status=failed&per_page=1&page=1`, { token: t.adminToken });
    assert.deepEqual(failed.body.data.map((x: any) => x.id), [older]);
    assert.equal(failed.body.total, 1);
    const beyond = await api.request('GET', `/platform/v1/webhooks/${w.id}/deliveries?page=5`, { token: t.adminToken });
    assert.deepEqual([beyond.body.data.length, beyond.body.total], [0, 2]);
    assertPlatformError(await api.request('GET', `/platform/v1/webhooks/${w.id}/deliveries?status=lost`, { token: t.adminToken }), 400, 'validation_failed');
    assertPlatformError(await api.request('POST', `/platform/v1/webhooks/${w.id}/deliveries/evt_nothere/redeliver`, { token: t.adminToken }), 404, 'not_found');
    assertPlatformError(await api.request('POST', `/platform/v1/webhooks/${w.id}/deliveries/nope/redeliver`, { token: t.adminToken }), 404, 'not_found');
    // a pending delivery cannot be sent again yet
    const pending = await insertLoggedDelivery(api.deps.db, { endpointId: w.id, workspaceId: t.workspaceId, status: 'pending' });
    assertPlatformError(await api.request('POST', `/platform/v1/webhooks/${w.id}/deliveries/${pending}/redeliver`, { token: t.adminToken }), 409, 'conflict');
    // nor one of a paused endpoint (resume it first); nothing is claimed
    assert.equal((await api.request('PATCH', `/platform/v1/webhooks/${w.id}`, { token: t.adminToken, body: { active: false } })).status, 200);
    const paused = await api.request('POST', `/platform/v1/webhooks/${w.id}/deliveries/${older}/redeliver`, { token: t.adminToken });
    assertPlatformError(paused, 409, 'conflict');
    assert.match(paused.body.error.message, /paused/);
    assert.equal((await api.deps.db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [older])).rows[0].status, 'failed');
  });
});
