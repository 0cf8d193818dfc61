// Platform users over HTTP, part 2, with the suite's platform worker: PATCH (role and name
// rights, the last admin); DELETE (tokens refused at once, the open tickets counted and
// unassigned through each ticket's workflow); reactivation (within the window, 409, 410 at
// 90 days by the request path's clock and for an erased user); two tenants never reach each
// other; hostile input; the OpenAPI document.
import assert from 'node:assert/strict';
import { createPlatformWorkspace } from '../../domain/platform/create-workspace';
import { deactivationStateQuery, userDeactivationWorkflowId } from '../../workflows/platform-user/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { validateOpenApi } from '../support/openapi-validator';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';
import { mailSoFar, receivedMail } from '../support/mail';
import { DAY, invite, inviteeEmail, linkTokenIn, member, openTicket } from './platform-users-helpers';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

describe('PATCH /users/{id}', () => {
  it('a user renames themself; roles are for admins; the last active admin cannot be demoted', async () => {
    const t = await platformTenant(api);
    const manager = await member(api, t, 'manager');
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
    const asAdmin = await invite(api, t.agentToken, { email: inviteeEmail('p'), name: 'P', role: 'admin' });
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
    const there = await member(api, a, 'agent', workspace.id);
    const admin = await member(api, a, 'admin');
    assertPlatformError(await api.request('PATCH', `/platform/v1/users/${there.id}`, { token: admin.token, body: { name: 'X' } }), 404, 'not_found');
    assertPlatformError(await api.request('DELETE', `/platform/v1/users/${there.id}`, { token: admin.token }), 404, 'not_found');
  });
});

describe('DELETE /users/{id} and POST /users/{id}/reactivate', () => {
  it('deactivates (admins only, not yourself): tokens refused at once, open tickets counted, the workflow runs; reactivation within 90 days', async () => {
    const t = await platformTenant(api);
    const manager = await member(api, t, 'manager');
    const target = await member(api, t, 'agent');
    await openTicket(api, t, target.id);
    await openTicket(api, t, target.id, 'pending');
    await openTicket(api, t, target.id, 'resolved');
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

  it('a reactivated user gets a sign-in link by email: it gives them a first token again, once', async () => {
    const t = await platformTenant(api);
    const email = inviteeEmail('back');
    const invited = await invite(api, t.adminToken, { email, name: 'Back', role: 'agent' });
    assert.equal(invited.status, 201);
    const invitation = linkTokenIn((await receivedMail((m) => m.to.includes(email.toLowerCase()))).raw);
    const activated = await api.request('POST', '/platform/v1/users/activate', { body: { token: invitation } });
    assert.equal(activated.status, 201, JSON.stringify(activated.body));
    const id = invited.body.id;

    assert.equal((await api.request('DELETE', `/platform/v1/users/${id}`, { token: t.adminToken })).status, 200);
    const handle = api.deps.temporal.workflow.getHandle(userDeactivationWorkflowId(id, 1));
    await eventually(async () => (await handle.query(deactivationStateQuery).catch(() => null)) === 'waiting', { what: 'the deactivation waiting' });
    assert.equal((await api.request('POST', `/platform/v1/users/${id}/reactivate`, { token: t.adminToken })).status, 200);
    assertPlatformError(await api.request('GET', '/platform/v1/users', { token: activated.body.token.token }), 401, 'unauthorized');

    const signIn = await eventually(async () => mailSoFar((m) => m.to.includes(email.toLowerCase()) && /restored/.test(m.raw))[0], { what: 'the sign-in email' });
    const link = linkTokenIn(signIn.raw);
    assert.notEqual(link, invitation);
    const back = await api.request('POST', '/platform/v1/users/activate', { body: { token: link } });
    assert.equal(back.status, 201, JSON.stringify(back.body));
    assert.equal(back.body.user.status, 'active');
    assert.equal((await api.request('GET', '/platform/v1/users', { token: back.body.token.token })).status, 200);
    assertPlatformError(await api.request('POST', '/platform/v1/users/activate', { body: { token: link } }), 400, 'validation_failed');
  });

  it("end to end: the deactivation unassigns each open ticket through the ticket's own workflow", async () => {
    const t = await platformTenant(api);
    const target = await member(api, t, 'agent');
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
    const early = await member(api, t, 'agent');
    const late = await member(api, t, 'agent');
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
    const invited = await invite(api, t.adminToken, { email: inviteeEmail('undo'), name: 'Undo', role: 'agent' });
    const off = await api.request('DELETE', `/platform/v1/users/${invited.body.id}`, { token: t.adminToken });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.unassigned_tickets, 0);
    const back = await api.request('POST', `/platform/v1/users/${invited.body.id}/reactivate`, { token: t.adminToken });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.status, 'invited');
    assert.equal((await invite(api, t.adminToken, { email: invited.body.email, name: 'Undo', role: 'agent' })).status, 201);
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
