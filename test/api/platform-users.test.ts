// Platform users over HTTP, part 1, with the suite's platform worker, its SMTP catcher and
// its fake transactional provider (which refuses `+provider-down` recipients, so the
// invitation falls through to SMTP): the list and its reach, invitations (permission
// matrix, 409s, a fresh link), the emailed link activating the user with a first token that
// works, once, its per-IP throttle and its expiry. Changes, deactivation and reactivation:
// platform-users-lifecycle.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createPlatformWorkspace } from '../../domain/platform/create-workspace';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { mailSoFar, receivedMail } from '../support/mail';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';
import { DAY, invite, inviteeEmail, linkTokenIn, member } from './platform-users-helpers';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

describe('GET /users', () => {
  it('an organisation admin lists the organisation, anyone else the members of their workspace; workspace_id filters', async () => {
    const t = await platformTenant(api);
    const { workspace } = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: t.organizationId, name: 'Second', now: new Date() }));
    const elsewhere = await member(api, t, 'agent', workspace.id);
    const all = await api.request('GET', '/platform/v1/users', { token: t.adminToken });
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(Object.keys(all.body).sort(), ['data', 'next_page', 'page', 'per_page', 'total']);
    assert.equal(all.body.total, 3);
    const admin = all.body.data.find((u: any) => u.id === t.adminUserId);
    assert.deepEqual(Object.keys(admin).sort(), ['created_at', 'deactivated_at', 'email', 'id', 'is_org_admin', 'last_active_at', 'name', 'role', 'status', 'workspace_ids']);
    assert.equal(admin.is_org_admin, true);
    assert.equal(admin.status, 'active');
    assert.deepEqual(admin.workspace_ids, [t.workspaceId]);

    const mine = await api.request('GET', '/platform/v1/users', { token: t.agentToken });
    assert.deepEqual(mine.body.data.map((u: any) => u.id).sort(), [t.adminUserId, t.agentUserId].sort());
    // the agent's filter on a workspace out of reach: an empty page; the admin's: its members
    const out = await api.request('GET', `/platform/v1/users?workspace_id=${workspace.id}`, { token: t.agentToken });
    assert.equal(out.status, 200);
    assert.deepEqual([out.body.total, out.body.data], [0, []]);
    const second = await api.request('GET', `/platform/v1/users?workspace_id=${workspace.id}`, { token: t.adminToken });
    assert.deepEqual(second.body.data.map((u: any) => u.id), [elsewhere.id]);

    const paged = await api.request('GET', '/platform/v1/users?per_page=2', { token: t.adminToken });
    assert.equal(paged.body.data.length, 2);
    assert.match(paged.body.next_page, /page=2/);
    assertPlatformError(await api.request('GET', '/platform/v1/users?per_page=101', { token: t.adminToken }), 400, 'validation_failed');
  });

  it("another organisation's workspace in the filter is an empty page", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    const res = await api.request('GET', `/platform/v1/users?workspace_id=${a.workspaceId}`, { token: b.adminToken });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.total, res.body.data], [0, []]);
  });
});

describe('POST /users/invite', () => {
  it('admins invite any role, managers agents only, agents nobody', async () => {
    const t = await platformTenant(api);
    const manager = await member(api, t, 'manager');
    const admin = await member(api, t, 'admin');
    assertPlatformError(await invite(api, t.agentToken, { email: inviteeEmail('a'), name: 'A', role: 'agent' }), 403, 'forbidden');
    assertPlatformError(await invite(api, manager.token, { email: inviteeEmail('b'), name: 'B', role: 'manager' }), 403, 'forbidden');
    const byManager = await invite(api, manager.token, { email: inviteeEmail('c'), name: 'C', role: 'agent' });
    assert.equal(byManager.status, 201, JSON.stringify(byManager.body));
    assert.equal(byManager.body.status, 'invited');
    assert.equal(byManager.body.role, 'agent');
    assert.deepEqual(byManager.body.workspace_ids, [t.workspaceId]);
    const byAdmin = await invite(api, admin.token, { email: inviteeEmail('d'), name: 'D', role: 'admin' });
    assert.equal(byAdmin.status, 201);
    assert.equal(byAdmin.body.email, byAdmin.body.email.toLowerCase(), 'stored lower-cased');
    assertPlatformError(await invite(api, t.adminToken, { email: 'not-an-email', name: 'E', role: 'agent' }), 400, 'validation_failed');
    assertPlatformError(await invite(api, t.adminToken, { email: inviteeEmail('f'), name: 'F', role: 'owner' }), 400, 'validation_failed');
  });

  it('an active user is a 409, an invited one gets a fresh link (the old one void), a deactivated one a 409', async () => {
    const t = await platformTenant(api);
    const active = await api.request('GET', '/platform/v1/users', { token: t.adminToken });
    const agentEmail = active.body.data.find((u: any) => u.id === t.agentUserId).email;
    assertPlatformError(await invite(api, t.adminToken, { email: agentEmail.toUpperCase(), name: 'Dup', role: 'agent' }), 409, 'conflict');

    const email = inviteeEmail('again');
    const first = await invite(api, t.adminToken, { email, name: 'Robin', role: 'agent' });
    assert.equal(first.status, 201);
    const firstMail = await receivedMail((m) => m.to.includes(email.toLowerCase()));
    const again = await invite(api, t.adminToken, { email, name: 'Robin R', role: 'manager' });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.role, 'manager');
    const mails = await eventually(async () => {
      const got = mailSoFar((m) => m.to.includes(email.toLowerCase()));
      return got.length >= 2 ? got : undefined;
    }, { what: 'the second invitation' });
    const tokens = mails.map((m) => linkTokenIn(m.raw));
    const fresh = tokens.find((x) => x !== linkTokenIn(firstMail.raw))!;
    assertPlatformError(await api.request('POST', '/platform/v1/users/activate', { body: { token: linkTokenIn(firstMail.raw) } }), 400, 'validation_failed');
    assert.equal((await api.request('POST', '/platform/v1/users/activate', { body: { token: fresh } })).status, 201);

    const gone = await member(api, t, 'agent');
    assert.equal((await api.request('DELETE', `/platform/v1/users/${gone.id}`, { token: t.adminToken })).status, 200);
    const goneEmail = (await api.request('GET', '/platform/v1/users?per_page=100', { token: t.adminToken })).body.data.find((u: any) => u.id === gone.id).email;
    const res = await invite(api, t.adminToken, { email: goneEmail, name: 'Back', role: 'agent' });
    assertPlatformError(res, 409, 'conflict');
    assert.match(res.body.error.message, /reactivate/);
  });

  it("a workspace_id of another organisation or out of the caller's reach is a 404", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    assertPlatformError(await invite(api, b.adminToken, { email: inviteeEmail('x'), name: 'X', role: 'agent', workspace_id: a.workspaceId }), 404, 'not_found');
    const { workspace } = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: a.organizationId, name: 'Other', now: new Date() }));
    const admin = await member(api, a, 'admin');
    assertPlatformError(await invite(api, admin.token, { email: inviteeEmail('y'), name: 'Y', role: 'agent', workspace_id: workspace.id }), 404, 'not_found');
    const byOrgAdmin = await invite(api, a.adminToken, { email: inviteeEmail('z'), name: 'Z', role: 'agent', workspace_id: workspace.id });
    assert.equal(byOrgAdmin.status, 201);
    assert.deepEqual(byOrgAdmin.body.workspace_ids, [workspace.id]);
  });
});

describe('POST /users/activate', () => {
  it('the emailed link activates the user once, with a first service_test_ token that works', async () => {
    const t = await platformTenant(api);
    const email = inviteeEmail('sam');
    const invited = await invite(api, t.adminToken, { email, name: 'Sam', role: 'manager' });
    assert.equal(invited.status, 201);
    const mail = await receivedMail((m) => m.to.includes(email.toLowerCase()));
    const token = linkTokenIn(mail.raw);
    const { rows } = await api.deps.db.query(`SELECT row_to_json(a)::text AS r FROM platform_activation_tokens a WHERE user_id = $1`, [invited.body.id]);
    assert.ok(rows.length === 1 && !rows[0].r.includes(token), 'only the hash is stored');

    const res = await api.request('POST', '/platform/v1/users/activate', { body: { token } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.body.user.id, invited.body.id);
    assert.equal(res.body.user.status, 'active');
    assert.match(res.body.token.token, /^service_test_[A-Za-z0-9_-]{43}$/);
    assert.equal(res.body.token.workspace_id, t.workspaceId);
    assert.equal(res.body.token.created_by, invited.body.id);

    const me = await api.request('GET', '/platform/v1/users', { token: res.body.token.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.find((u: any) => u.id === invited.body.id).status, 'active');
    // single use; unknown: the same answer
    const reused = await api.request('POST', '/platform/v1/users/activate', { body: { token } });
    assertPlatformError(reused, 400, 'validation_failed');
    const unknown = await api.request('POST', '/platform/v1/users/activate', { body: { token: 'x'.repeat(43) } });
    assertPlatformError(unknown, 400, 'validation_failed');
    assert.deepEqual(unknown.body.error.details, reused.body.error.details);
    assert.equal(unknown.body.error.message, reused.body.error.message);
  });

  it('failed activations are throttled per client address: then even a good link is a 429 with Retry-After', async () => {
    const t = await platformTenant(api);
    const email = inviteeEmail('throttled');
    await invite(api, t.adminToken, { email, name: 'T', role: 'agent' });
    const token = linkTokenIn((await receivedMail((m) => m.to.includes(email.toLowerCase()))).raw);
    const tight = await startPlatformApi({ RATE_LIMITS: 'platform-anonymous-ip=2' });
    try {
      for (let i = 0; i < 3; i++) await tight.request('POST', '/platform/v1/users/activate', { body: { token: `wrong-${i}` } });
      const refused = await tight.request('POST', '/platform/v1/users/activate', { body: { token } });
      assertPlatformError(refused, 429, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    } finally {
      await tight.stop();
    }
    // the link was not spent: the generous API (same address, its own limit) takes it
    assert.equal((await api.request('POST', '/platform/v1/users/activate', { body: { token } })).status, 201);
  });

  it('an expired link (7 days, the request path clock) answers as an unknown one; a lost answer is replayed under its Idempotency-Key', async () => {
    const t = await platformTenant(api);
    const email = inviteeEmail('late');
    const invited = await invite(api, t.adminToken, { email, name: 'Late', role: 'agent' });
    const token = linkTokenIn((await receivedMail((m) => m.to.includes(email.toLowerCase()))).raw);
    const created = new Date(invited.body.created_at).getTime();
    const later = await startPlatformApi({}, { clock: () => new Date(created + 7 * DAY) });
    try {
      assertPlatformError(await later.request('POST', '/platform/v1/users/activate', { body: { token } }), 400, 'validation_failed');
    } finally {
      await later.stop();
    }
    const justBefore = await startPlatformApi({}, { clock: () => new Date(created + 7 * DAY - 60_000) });
    try {
      const headers = { 'Idempotency-Key': randomUUID() };
      const first = await justBefore.request('POST', '/platform/v1/users/activate', { body: { token }, headers });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const replay = await justBefore.request('POST', '/platform/v1/users/activate', { body: { token }, headers });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.token.token, first.body.token.token);
    } finally {
      await justBefore.stop();
    }
  });
});
