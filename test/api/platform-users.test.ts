// Platform users over HTTP with the suite's platform worker, its SMTP catcher and its fake
// transactional provider (which refuses `+provider-down` recipients, so the invitation
// falls through to SMTP): list and its reach, invite (permission matrix, 409s, a fresh
// link), the emailed link activating the user with a first token that works, once; PATCH
// (role and name rights, the last admin); DELETE (tokens refused at once, the open tickets
// counted, the workflow started); reactivation (within the window, 409, 410 at 90 days by
// the request path's clock and for an erased user); two tenants never reach each other.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { createPlatformWorkspace } from '../../domain/platform/create-workspace';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformRole } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import { deactivationStateQuery, userDeactivationWorkflowId } from '../../workflows/platform-user/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { mailSoFar, receivedMail } from '../support/mail';
import { validateOpenApi } from '../support/openapi-validator';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';

const DAY = 86_400_000;
let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

/** A provider-down address: the invitation then arrives through the suite's SMTP catcher. */
const inviteeEmail = (tag: string) => `${tag}+provider-down-${randomUUID().slice(0, 8)}@Studio.Example`;

/** A member of the tenant's workspace (or `workspaceId`) with `role`, active, and a token of theirs there. */
async function member(t: PlatformTenant, role: PlatformRole, workspaceId = t.workspaceId) {
  const now = new Date();
  return api.deps.db.transaction(async (m) => {
    const user = await insertPlatformUser(m, {
      id: newId('usr'),
      organizationId: t.organizationId,
      email: `${role}-${randomUUID().slice(0, 8)}@studio.example`,
      name: `A ${role}`,
      role,
      isOrgAdmin: false,
      status: 'active',
      createdAt: now,
    });
    await addPlatformMembership(m, workspaceId, user.id);
    const { secret } = await issuePlatformToken(m, { organizationId: t.organizationId, workspaceId, userId: user.id, name: 'test', environment: 'test', now });
    return { id: user.id, token: secret };
  });
}

/** An open ticket of the workspace assigned to `userId` (the row as the ticket workflow keeps it). */
async function openTicket(t: PlatformTenant, userId: string, status = 'open') {
  const id = newId('tkt');
  await api.deps.db.query(
    `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, contact_email, priority, status, assignee_id)
     VALUES ($1, $2, $3, 'test', $4, 'Crash on start', 'player@example.com', 'normal', $5, $6)`,
    [id, t.organizationId, t.workspaceId, t.channelIds.email, status, userId],
  );
  return id;
}

/** The activation link's token in a raw SMTP message (its quoted-printable undone). */
function linkTokenIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  const m = /(https?:\/\/\S+\/platform\/activate\?token=[A-Za-z0-9_%-]+)/.exec(text);
  assert.ok(m, `no activation link in the mail:\n${text}`);
  return new URL(m[1]).searchParams.get('token')!;
}

const invite = (token: string, body: object) => api.request('POST', '/platform/v1/users/invite', { token, body });

describe('GET /users', () => {
  it('an organisation admin lists the organisation, anyone else the members of their workspace; workspace_id filters', async () => {
    const t = await platformTenant(api);
    const { workspace } = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: t.organizationId, name: 'Second', now: new Date() }));
    const elsewhere = await member(t, 'agent', workspace.id);
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
    const manager = await member(t, 'manager');
    const admin = await member(t, 'admin');
    assertPlatformError(await invite(t.agentToken, { email: inviteeEmail('a'), name: 'A', role: 'agent' }), 403, 'forbidden');
    assertPlatformError(await invite(manager.token, { email: inviteeEmail('b'), name: 'B', role: 'manager' }), 403, 'forbidden');
    const byManager = await invite(manager.token, { email: inviteeEmail('c'), name: 'C', role: 'agent' });
    assert.equal(byManager.status, 201, JSON.stringify(byManager.body));
    assert.equal(byManager.body.status, 'invited');
    assert.equal(byManager.body.role, 'agent');
    assert.deepEqual(byManager.body.workspace_ids, [t.workspaceId]);
    const byAdmin = await invite(admin.token, { email: inviteeEmail('d'), name: 'D', role: 'admin' });
    assert.equal(byAdmin.status, 201);
    assert.equal(byAdmin.body.email, byAdmin.body.email.toLowerCase(), 'stored lower-cased');
    assertPlatformError(await invite(t.adminToken, { email: 'not-an-email', name: 'E', role: 'agent' }), 400, 'validation_failed');
    assertPlatformError(await invite(t.adminToken, { email: inviteeEmail('f'), name: 'F', role: 'owner' }), 400, 'validation_failed');
  });

  it('an active user is a 409, an invited one gets a fresh link (the old one void), a deactivated one a 409', async () => {
    const t = await platformTenant(api);
    const active = await api.request('GET', '/platform/v1/users', { token: t.adminToken });
    const agentEmail = active.body.data.find((u: any) => u.id === t.agentUserId).email;
    assertPlatformError(await invite(t.adminToken, { email: agentEmail.toUpperCase(), name: 'Dup', role: 'agent' }), 409, 'conflict');

    const email = inviteeEmail('again');
    const first = await invite(t.adminToken, { email, name: 'Robin', role: 'agent' });
    assert.equal(first.status, 201);
    const firstMail = await receivedMail((m) => m.to.includes(email.toLowerCase()));
    const again = await invite(t.adminToken, { email, name: 'Robin R', role: 'manager' });
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

    const gone = await member(t, 'agent');
    assert.equal((await api.request('DELETE', `/platform/v1/users/${gone.id}`, { token: t.adminToken })).status, 200);
    const goneEmail = (await api.request('GET', '/platform/v1/users?per_page=100', { token: t.adminToken })).body.data.find((u: any) => u.id === gone.id).email;
    const res = await invite(t.adminToken, { email: goneEmail, name: 'Back', role: 'agent' });
    assertPlatformError(res, 409, 'conflict');
    assert.match(res.body.error.message, /reactivate/);
  });

  it("a workspace_id of another organisation or out of the caller's reach is a 404", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    assertPlatformError(await invite(b.adminToken, { email: inviteeEmail('x'), name: 'X', role: 'agent', workspace_id: a.workspaceId }), 404, 'not_found');
    const { workspace } = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: a.organizationId, name: 'Other', now: new Date() }));
    const admin = await member(a, 'admin');
    assertPlatformError(await invite(admin.token, { email: inviteeEmail('y'), name: 'Y', role: 'agent', workspace_id: workspace.id }), 404, 'not_found');
    const byOrgAdmin = await invite(a.adminToken, { email: inviteeEmail('z'), name: 'Z', role: 'agent', workspace_id: workspace.id });
    assert.equal(byOrgAdmin.status, 201);
    assert.deepEqual(byOrgAdmin.body.workspace_ids, [workspace.id]);
  });
});

describe('POST /users/activate', () => {
  it('the emailed link activates the user once, with a first service_test_ token that works', async () => {
    const t = await platformTenant(api);
    const email = inviteeEmail('sam');
    const invited = await invite(t.adminToken, { email, name: 'Sam', role: 'manager' });
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
    await invite(t.adminToken, { email, name: 'T', role: 'agent' });
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
    const invited = await invite(t.adminToken, { email, name: 'Late', role: 'agent' });
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

describe('PATCH /users/{id}', () => {
  it('a user renames themself; roles are for admins; the last active admin cannot be demoted', async () => {
    const t = await platformTenant(api);
    const manager = await member(t, 'manager');
    const self = await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: t.agentToken, body: { name: 'Agent Smith' } });
    assert.equal(self.status, 200, JSON.stringify(self.body));
    assert.equal(self.body.name, 'Agent Smith');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${manager.id}`, { token: t.agentToken, body: { name: 'X' } }), 403, 'forbidden');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: t.agentToken, body: { role: 'admin' } }), 403, 'forbidden');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: manager.token, body: { role: 'manager' } }), 403, 'forbidden');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: t.adminToken, body: {} }), 400, 'validation_failed');

    // the organisation admin is the only admin: not demoted
    const last = await api.request('PATCH', `/platform/v1/users/${t.adminUserId}`, { token: t.adminToken, body: { role: 'manager' } });
    assertPlatformError(last, 409, 'conflict');
    assert.match(last.body.error.message, /last active admin/);

    // promote the agent: a role change applies to their token at once
    const promoted = await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: t.adminToken, body: { role: 'admin' } });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.role, 'admin');
    const asAdmin = await invite(t.agentToken, { email: inviteeEmail('p'), name: 'P', role: 'admin' });
    assert.equal(asAdmin.status, 201, 'the promoted token invites admins');
    // now the organisation admin may step down to manager (and loses organisation admin rights)
    const down = await api.request('PATCH', `/platform/v1/users/${t.adminUserId}`, { token: t.adminToken, body: { role: 'manager' } });
    assert.equal(down.status, 200, JSON.stringify(down.body));
    assert.deepEqual([down.body.role, down.body.is_org_admin], ['manager', false]);
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${t.agentUserId}`, { token: t.agentToken, body: { role: 'agent' } }), 409, 'conflict');
  });

  it("another organisation's user id is a 404; a user outside a workspace admin's workspace too", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${a.agentUserId}`, { token: b.adminToken, body: { name: 'X' } }), 404, 'not_found');
    assertPlatformError(await api.request('PATCH', '/platform/v1/users/nope', { token: b.adminToken, body: { name: 'X' } }), 404, 'not_found');
    const { workspace } = await api.deps.db.transaction((m) => createPlatformWorkspace(m, { organizationId: a.organizationId, name: 'Other', now: new Date() }));
    const there = await member(a, 'agent', workspace.id);
    const admin = await member(a, 'admin');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${there.id}`, { token: admin.token, body: { name: 'X' } }), 404, 'not_found');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${there.id}`, { token: admin.token }), 404, 'not_found');
  });
});

describe('DELETE /users/{id} and POST /users/{id}/reactivate', () => {
  it('deactivates (admins only, not yourself): tokens refused at once, open tickets counted, the workflow runs; reactivation within 90 days', async () => {
    const t = await platformTenant(api);
    const manager = await member(t, 'manager');
    const target = await member(t, 'agent');
    await openTicket(t, target.id);
    await openTicket(t, target.id, 'pending');
    await openTicket(t, target.id, 'resolved');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: t.agentToken }), 403, 'forbidden');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: manager.token }), 403, 'forbidden');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${t.adminUserId}`, { token: t.adminToken }), 409, 'conflict');

    const res = await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: t.adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'deactivated');
    assert.ok(res.body.deactivated_at);
    assert.equal(res.body.unassigned_tickets, 2);
    assertPlatformError(await api.request('GET', '/platform/v1/users', { token: target.token }), 401, 'unauthorized');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_tokens WHERE user_id = $1 AND revoked_at IS NULL`, [target.id]);
    assert.equal(rows[0].n, 0);
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: t.adminToken }), 409, 'conflict');

    // the deactivation's workflow runs (the tickets' workflows do not exist here: skipped) and waits
    const handle = api.deps.temporal.workflow.getHandle(userDeactivationWorkflowId(target.id, 1));
    await eventually(async () => (await handle.query(deactivationStateQuery).catch(() => null)) === 'waiting', { what: 'the deactivation waiting for its 90 days' });

    assertPlatformError(await api.request('POST', `/platform/v1/users/${target.id}/reactivate`, { token: manager.token }), 403, 'forbidden');
    const back = await api.request('POST', `/platform/v1/users/${target.id}/reactivate`, { token: t.adminToken });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.deepEqual([back.body.status, back.body.deactivated_at], ['active', null]);
    assert.equal((await handle.result()).outcome, 'reactivated');
    assertPlatformError(await api.request('GET', '/platform/v1/users', { token: target.token }), 401, 'unauthorized');
    assertPlatformError(await api.request('POST', `/platform/v1/users/${target.id}/reactivate`, { token: t.adminToken }), 409, 'conflict');

    // deactivated again: a workflow of its own
    const again = await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: t.adminToken });
    assert.equal(again.status, 200);
    const second = api.deps.temporal.workflow.getHandle(userDeactivationWorkflowId(target.id, 2));
    await eventually(async () => (await second.query(deactivationStateQuery).catch(() => null)) === 'waiting', { what: 'the second deactivation' });
    assert.equal((await api.request('POST', `/platform/v1/users/${target.id}/reactivate`, { token: t.adminToken })).status, 200);
  });

  it("end to end: the deactivation unassigns each open ticket through the ticket's own workflow", async () => {
    const t = await platformTenant(api);
    const target = await member(t, 'agent');
    const create = (subject: string) =>
      api.request('POST', '/platform/v1/tickets', {
        token: t.adminToken,
        body: { subject, channel_id: t.channelIds.web, contact_email: 'player@example.com', assignee_id: target.id },
      });
    const [open, pending, resolved] = [await create('Open'), await create('Pending'), await create('Resolved')];
    for (const r of [open, pending, resolved]) assert.equal(r.status, 201, JSON.stringify(r.body));
    const patch = (id: string, status: string) => api.request('PATCH', `/platform/v1/tickets/${id}`, { token: t.adminToken, body: { status } });
    assert.equal((await patch(pending.body.id, 'pending')).status, 200);
    assert.equal((await patch(resolved.body.id, 'resolved')).status, 200);

    const res = await api.request('DELETE', `/platform/v1/users/${target.id}`, { token: t.adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.unassigned_tickets, 2);
    const result = await api.deps.temporal.workflow.getHandle(userDeactivationWorkflowId(target.id, 1));
    await eventually(async () => (await result.query(deactivationStateQuery).catch(() => null)) === 'waiting', { what: 'unassigning done' });
    const assignee = async (id: string) => (await api.request('GET', `/platform/v1/tickets/${id}`, { token: t.adminToken })).body.assignee_id;
    assert.equal(await assignee(open.body.id), null);
    assert.equal(await assignee(pending.body.id), null);
    assert.equal(await assignee(resolved.body.id), target.id, 'a resolved ticket keeps its assignee');
  });

  it('reactivation at 89 d 23 h is a 200, at 90 d a 410 (the request path clock); an erased user is a 410', async () => {
    const t = await platformTenant(api);
    const early = await member(t, 'agent');
    const late = await member(t, 'agent');
    const d1 = await api.request('DELETE', `/platform/v1/users/${early.id}`, { token: t.adminToken });
    const d2 = await api.request('DELETE', `/platform/v1/users/${late.id}`, { token: t.adminToken });
    assert.equal(d1.status, 200);
    for (const id of [early.id, late.id]) {
      const handle = api.deps.temporal.workflow.getHandle(userDeactivationWorkflowId(id, 1));
      await eventually(async () => (await handle.query(deactivationStateQuery).catch(() => null)) === 'waiting', { what: 'the deactivation waiting' });
    }
    const at = (d: any, ms: number) => new Date(new Date(d.body.deactivated_at).getTime() + ms);

    const before = await startPlatformApi({}, { clock: () => at(d1, 90 * DAY - 3600_000) });
    const after = await startPlatformApi({}, { clock: () => at(d2, 90 * DAY) });
    try {
      const ok = await before.request('POST', `/platform/v1/users/${early.id}/reactivate`, { token: t.adminToken });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assertPlatformError(await after.request('POST', `/platform/v1/users/${late.id}/reactivate`, { token: t.adminToken }), 410, 'gone');
    } finally {
      await before.stop();
      await after.stop();
    }
    // erased by the timer (proven on the time-skipping server: test/workflows/platform-user-deactivation.test.ts)
    await api.deps.db.query(`UPDATE platform_users SET status = 'erased', email = NULL, name = NULL, erased_at = now() WHERE id = $1`, [late.id]);
    assertPlatformError(await api.request('POST', `/platform/v1/users/${late.id}/reactivate`, { token: t.adminToken }), 410, 'gone');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${late.id}`, { token: t.adminToken }), 410, 'gone');
  });

  it('an invited user deactivated and reactivated is invited again (and can be invited anew)', async () => {
    const t = await platformTenant(api);
    const invited = await invite(t.adminToken, { email: inviteeEmail('undo'), name: 'Undo', role: 'agent' });
    const off = await api.request('DELETE', `/platform/v1/users/${invited.body.id}`, { token: t.adminToken });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.unassigned_tickets, 0);
    const back = await api.request('POST', `/platform/v1/users/${invited.body.id}/reactivate`, { token: t.adminToken });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.status, 'invited');
    assert.equal((await invite(t.adminToken, { email: invited.body.email, name: 'Undo', role: 'agent' })).status, 201);
  });

  it("another organisation's user id in the path is a 404", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${a.agentUserId}`, { token: b.adminToken }), 404, 'not_found');
    assertPlatformError(await api.request('POST', `/platform/v1/users/${a.agentUserId}/reactivate`, { token: b.adminToken }), 404, 'not_found');
    const still = await api.request('GET', '/platform/v1/users', { token: a.agentToken });
    assert.equal(still.status, 200, 'untouched');
  });
});

describe('hostile input', () => {
  it('is a 4xx in the platform envelope, never a 500', async () => {
    const t = await platformTenant(api);
    const cases: [string, string, Record<string, unknown>][] = [
      ['POST', '/platform/v1/users/invite', { body: { email: 'a@b.example', name: 'x'.repeat(201), role: 'agent' } }],
      ['POST', '/platform/v1/users/invite', { body: { email: 'a@b.example', name: 'A', role: 'agent', extra: 1 } }],
      ['POST', '/platform/v1/users/invite', { body: { email: ['a@b.example'], name: 'A', role: 'agent' } }],
      ['POST', '/platform/v1/users/invite', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }],
      ['PATCH', `/platform/v1/users/${t.agentUserId}`, { body: { role: 'root' } }],
      ['PATCH', `/platform/v1/users/${t.agentUserId}`, { body: { name: '' } }],
      ['PATCH', `/platform/v1/users/${t.agentUserId}`, { body: null }],
      ['GET', '/platform/v1/users?page=0', {}],
      ['GET', `/platform/v1/users?workspace_id=${'w'.repeat(65)}`, {}],
      ['DELETE', `/platform/v1/users/${'u'.repeat(500)}`, {}],
      ['POST', `/platform/v1/users/%E2%80%AE/reactivate`, {}],
      ['POST', '/platform/v1/users/activate', { body: { token: 'x'.repeat(201) } }],
      ['POST', '/platform/v1/users/activate', { body: { token: 42 } }],
      ['POST', '/platform/v1/users/activate', { body: {} }],
      ['POST', '/platform/v1/users/activate', { rawBody: 'token=abc', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ];
    for (const [method, path, opts] of cases) {
      const res = await api.request(method, path, { token: t.adminToken, ...opts });
      assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      assertPlatformError(res, res.status);
    }
  });
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.0 and describes every users path (the activation without a bearer token)', async () => {
    const doc = (await api.request('GET', '/platform/v1/openapi.json')).body;
    const { valid, errors } = await validateOpenApi(doc);
    assert.ok(valid, JSON.stringify(errors));
    assert.ok(doc.paths['/platform/v1/users'].get);
    assert.ok(doc.paths['/platform/v1/users/invite'].post);
    assert.deepEqual(doc.paths['/platform/v1/users/activate'].post.security, []);
    assert.ok(doc.paths['/platform/v1/users/{id}'].patch && doc.paths['/platform/v1/users/{id}'].delete);
    assert.ok(doc.paths['/platform/v1/users/{id}/reactivate'].post.responses['410']);
  });
});
