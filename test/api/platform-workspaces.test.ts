// Platform workspaces over HTTP (docs/platform.md, "Workspaces"): list and detail, create
// (organisation admins), change (admins), delete with confirm after a 30-day grace (the
// workspace disabled at once, its deletion workflow started from the outbox by the
// platform worker) and restore (the Update through the real worker); the permission
// matrix, validation, and two tenants trying each other's ids (404).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { platformTokens } from '../../api/platform/auth/token-cache';
import { purgePlatformWorkspace } from '../../domain/platform/purge-workspace';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformRole } from '../../domain/platform/types';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import { platformWorkspaceDeletionWorkflowId } from '../../workflows/platform-workspace/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { assertPlatformError, platformTenant, startPlatformApi, platformMember } from '../support/platform';

const DAY = 86_400_000;

describe('platform workspaces', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPlatformApi();
  });
  afterAll(() => api?.stop());

  const member = (t: PlatformTenant, role: PlatformRole, workspaceId = t.workspaceId, isOrgAdmin = false) =>
    platformMember(api, t, role, { workspaceId, isOrgAdmin });

  const req = (method: string, path: string, token: string, body?: unknown) => api.request(method, `/platform/v1${path}`, { token, body });

  it('lists the workspaces a token reaches, paged; the detail has channels, SLA policies and the agent count', async () => {
    const t = await platformTenant(api);
    const second = await req('POST', '/workspaces', t.adminToken, { name: 'Second' });
    assert.equal(second.status, 201, JSON.stringify(second.body));

    const all = await req('GET', '/workspaces', t.adminToken);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(Object.keys(all.body).sort(), ['data', 'next_page', 'page', 'per_page', 'total']);
    assert.equal(all.body.total, 2);
    assert.deepEqual(all.body.data.map((w: any) => w.id), [t.workspaceId, second.body.id]);
    const first = all.body.data[0];
    assert.deepEqual(Object.keys(first).sort(), ['created_at', 'default_language', 'deletion_requested_at', 'id', 'name', 'plan', 'purge_at', 'status', 'timezone', 'updated_at']);
    assert.deepEqual(first.plan, { name: 'standard', seats: 25, limits: { reads_per_minute: 120, writes_per_minute: 60, max_page_size: 100 } });
    assert.equal(first.status, 'active');
    assert.equal(first.purge_at, null);

    const paged = await req('GET', '/workspaces?per_page=1', t.adminToken);
    assert.equal(paged.body.data.length, 1);
    assert.match(paged.body.next_page, /page=2/);
    assertPlatformError(await req('GET', '/workspaces?per_page=101', t.adminToken), 400, 'validation_failed');

    // anyone but an organisation admin: the token's workspace only
    const agent = await req('GET', '/workspaces', t.agentToken);
    assert.equal(agent.body.total, 1);
    assert.deepEqual(agent.body.data.map((w: any) => w.id), [t.workspaceId]);
    const admin = await member(t, 'admin');
    assert.deepEqual((await req('GET', '/workspaces', admin.token)).body.data.map((w: any) => w.id), [t.workspaceId]);

    const detail = await req('GET', `/workspaces/${t.workspaceId}`, t.agentToken);
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.deepEqual(detail.body.channels.map((c: any) => c.type).sort(), ['api', 'chat', 'email', 'in_game', 'web']);
    assert.deepEqual(detail.body.channels.map((c: any) => c.id).sort(), Object.values(t.channelIds).sort());
    assert.deepEqual(detail.body.sla_policies.map((p: any) => p.priority), ['critical', 'high', 'normal', 'low']);
    assert.deepEqual(detail.body.sla_policies[0], { priority: 'critical', first_response_minutes: 60, resolution_minutes: 480 });
    // the org admin, the agent and the admin just added are active and work here
    assert.equal(detail.body.agent_count, 3);
    await api.deps.db.query(`UPDATE platform_users SET status = 'deactivated' WHERE id = $1`, [admin.userId]);
    assert.equal((await req('GET', `/workspaces/${t.workspaceId}`, t.agentToken)).body.agent_count, 2, 'a deactivated user is not counted');
    // the second workspace: its creator (the organisation admin) only
    assert.equal((await req('GET', `/workspaces/${second.body.id}`, t.adminToken)).body.agent_count, 1);
    // another workspace of its own organisation is a 404 for an agent's token
    assertPlatformError(await req('GET', `/workspaces/${second.body.id}`, t.agentToken), 404, 'not_found');
  });

  it('creates a workspace (organisation admins only) with defaults and validated, canonical settings', async () => {
    const t = await platformTenant(api);
    const made = await req('POST', '/workspaces', t.adminToken, { name: ' Brazil ', timezone: 'america/sao_paulo', default_language: 'pt-br' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.name, 'Brazil');
    assert.equal(made.body.timezone, 'America/Sao_Paulo');
    assert.equal(made.body.default_language, 'pt-BR');
    assert.match(made.body.id, /^ws_/);
    assert.equal(made.body.channels.length, 5);
    const { rows } = await api.deps.db.query(`SELECT 1 FROM platform_memberships WHERE workspace_id = $1 AND user_id = $2`, [made.body.id, t.adminUserId]);
    assert.equal(rows.length, 1, 'the creator works in it');

    const plain = await req('POST', '/workspaces', t.adminToken, { name: 'Plain' });
    assert.equal(plain.body.timezone, 'UTC');
    assert.equal(plain.body.default_language, 'en');

    for (const role of ['agent', 'manager', 'admin'] as const) {
      const u = await member(t, role);
      assertPlatformError(await req('POST', '/workspaces', u.token, { name: 'Nope' }), 403, 'forbidden');
    }
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 'Bad', timezone: 'Mars/Olympus' },
      { name: 'Bad', timezone: '+01:00' },
      { name: 'Bad', timezone: 5 },
      { name: 'Bad', default_language: 'english' },
      { name: 'Bad', default_language: 'e' },
      { name: 'Bad', default_language: 'en_US' },
      { name: 'Bad', plan: 'gold' },
    ]) {
      const res = await req('POST', '/workspaces', t.adminToken, body);
      assertPlatformError(res, 400, 'validation_failed');
    }
    const tz = await req('POST', '/workspaces', t.adminToken, { name: 'Bad', timezone: 'Mars/Olympus' });
    assert.ok(tz.body.error.details.timezone, JSON.stringify(tz.body));
  });

  it('changes name, timezone and default language (admins who reach the workspace); empty body 400', async () => {
    const t = await platformTenant(api);
    const admin = await member(t, 'admin');
    const res = await req('PATCH', `/workspaces/${t.workspaceId}`, admin.token, { name: 'Renamed', timezone: 'Asia/Tokyo', default_language: 'ja' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Renamed');
    assert.equal(res.body.timezone, 'Asia/Tokyo');
    assert.equal(res.body.default_language, 'ja');
    assert.ok(Date.parse(res.body.updated_at) >= Date.parse(res.body.created_at));
    const only = await req('PATCH', `/workspaces/${t.workspaceId}`, t.adminToken, { default_language: 'fr-CA' });
    assert.equal(only.body.default_language, 'fr-CA');
    assert.equal(only.body.name, 'Renamed', 'what is not given stays');

    for (const role of ['agent', 'manager'] as const) {
      const u = await member(t, role);
      assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, u.token, { name: 'x' }), 403, 'forbidden');
    }
    assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, t.agentToken, { name: 'x' }), 403, 'forbidden');
    assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, admin.token, {}), 400, 'validation_failed');
    assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, admin.token, { timezone: 'Nowhere/Land' }), 400, 'validation_failed');
    assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, admin.token, { default_language: '12' }), 400, 'validation_failed');
    assertPlatformError(await req('PATCH', `/workspaces/${t.workspaceId}`, admin.token, { status: 'active' }), 400, 'validation_failed');
    // an admin's token reaches its own workspace only; another of the organisation is a 404
    const other = await req('POST', '/workspaces', t.adminToken, { name: 'Other' });
    assertPlatformError(await req('PATCH', `/workspaces/${other.body.id}`, admin.token, { name: 'x' }), 404, 'not_found');
    assert.equal((await req('PATCH', `/workspaces/${other.body.id}`, t.adminToken, { name: 'By the org admin' })).status, 200);
    assertPlatformError(await req('PATCH', '/workspaces/ws_nope', t.adminToken, { name: 'x' }), 404, 'not_found');
  });

  it('deletes with confirm: disabled at once (403 outside /workspaces), purge_at in 30 days, restored through the workflow', async () => {
    const t = await platformTenant(api);
    const path = `/workspaces/${t.workspaceId}`;
    // confirm missing, false or of another type: 400
    assertPlatformError(await req('DELETE', path, t.adminToken), 400, 'validation_failed');
    assertPlatformError(await req('DELETE', path, t.adminToken, { confirm: false }), 400, 'validation_failed');
    assertPlatformError(await req('DELETE', path, t.adminToken, { confirm: 'true' }), 400, 'validation_failed');
    assertPlatformError(await req('DELETE', `${path}?confirm=yes`, t.adminToken), 400, 'validation_failed');
    // organisation admins only
    for (const role of ['agent', 'manager', 'admin'] as const) {
      const u = await member(t, role);
      assertPlatformError(await req('DELETE', `${path}?confirm=true`, u.token), 403, 'forbidden');
      assertPlatformError(await req('POST', `${path}/restore`, u.token), 403, 'forbidden');
    }
    // not pending: restore is a 409
    assertPlatformError(await req('POST', `${path}/restore`, t.adminToken), 409, 'conflict');
    assert.equal((await req('GET', '/auth/tokens', t.agentToken)).status, 200);

    const before = Date.now();
    const del = await req('DELETE', path, t.adminToken, { confirm: true });
    assert.equal(del.status, 202, JSON.stringify(del.body));
    assert.equal(del.body.status, 'pending_deletion');
    const requestedAt = Date.parse(del.body.deletion_requested_at);
    assert.ok(requestedAt >= before - 1000);
    assert.equal(Date.parse(del.body.purge_at) - requestedAt, 30 * DAY);

    // disabled at once: a non-workspace route answers 403, /workspaces still serves
    assertPlatformError(await req('GET', '/auth/tokens', t.agentToken), 403, 'forbidden');
    assertPlatformError(await req('GET', '/auth/tokens', t.adminToken), 403, 'forbidden');
    assert.equal((await req('GET', path, t.agentToken)).body.status, 'pending_deletion');
    // changes wait for a restore; a second DELETE answers the same
    assertPlatformError(await req('PATCH', path, t.adminToken, { name: 'x' }), 409, 'conflict');
    const again = await req('DELETE', `${path}?confirm=true`, t.adminToken);
    assert.equal(again.status, 202);
    assert.equal(again.body.purge_at, del.body.purge_at);

    // the platform worker started the deletion workflow from the outbox
    const workflowId = platformWorkspaceDeletionWorkflowId(t.workspaceId, del.body.deletion_requested_at);
    const handle = api.deps.temporal.workflow.getHandle(workflowId);
    await eventually(async () => (await handle.describe().catch(() => null))?.status.name === 'RUNNING', { what: 'the deletion workflow runs' });

    const restored = await req('POST', `${path}/restore`, t.adminToken);
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.status, 'active');
    assert.equal(restored.body.purge_at, null);
    assert.equal(restored.body.deletion_requested_at, null);
    assert.equal(await handle.result(), 'restored');
    assert.equal((await req('GET', '/auth/tokens', t.agentToken)).status, 200, 'enabled again');
    assertPlatformError(await req('POST', `${path}/restore`, t.adminToken), 409, 'conflict');

    // deleted again after a restore: a run of its own, restorable again
    const del2 = await req('DELETE', `${path}?confirm=true`, t.adminToken);
    assert.equal(del2.status, 202);
    assert.notEqual(del2.body.deletion_requested_at, del.body.deletion_requested_at);
    const restored2 = await req('POST', `${path}/restore`, t.adminToken);
    assert.equal(restored2.status, 200, JSON.stringify(restored2.body));
    assert.equal(restored2.body.status, 'active');
  });

  it('a purged workspace is a 404 everywhere, restore included; its own tokens are gone (401)', async () => {
    const t = await platformTenant(api);
    const path = `/workspaces/${t.workspaceId}`;
    const other = await req('POST', '/workspaces', t.adminToken, { name: 'Stays' });
    const orgAdmin = await member(t, 'admin', other.body.id, true);
    const del = await req('DELETE', `${path}?confirm=true`, t.adminToken);
    assert.equal(del.status, 202);
    assert.equal((await req('GET', '/workspaces', t.adminToken)).status, 200); // its token row is cached again, pending
    // what the workflow's activity does at purge_at
    const outcome = await purgePlatformWorkspace(api.deps.db, t.workspaceId, new Date(del.body.deletion_requested_at), { ticket: platformTicketWorkflowId, token: platformTokenExpiryWorkflowId });
    assert.equal(outcome, 'purged');
    assertPlatformError(await req('POST', `${path}/restore`, orgAdmin.token), 404, 'not_found');
    assertPlatformError(await req('GET', path, orgAdmin.token), 404, 'not_found');
    assertPlatformError(await req('PATCH', path, orgAdmin.token, { name: 'x' }), 404, 'not_found');
    assertPlatformError(await req('DELETE', `${path}?confirm=true`, orgAdmin.token), 404, 'not_found');
    assert.deepEqual((await req('GET', '/workspaces', orgAdmin.token)).body.data.map((w: any) => w.id), [other.body.id]);
    // a token of the purged workspace that this process's cache still holds (up to 30 s) cannot create workspaces
    assertPlatformError(await req('POST', '/workspaces', t.adminToken, { name: 'late' }), 403, 'forbidden');
    platformTokens(api.deps).forgetUser(t.adminUserId); // as another process after its cache's 30 s
    assertPlatformError(await req('GET', '/workspaces', t.adminToken), 401, 'unauthorized');
    assertPlatformError(await req('GET', '/workspaces', t.agentToken), 401, 'unauthorized');
    await api.deps.temporal.workflow.getHandle(platformWorkspaceDeletionWorkflowId(t.workspaceId, del.body.deletion_requested_at)).terminate('test done').catch(() => undefined);
  });

  it('restore of a pending workspace whose run has ended (terminated by an operator) starts a new run that takes the restore', async () => {
    const t = await platformTenant(api);
    const path = `/workspaces/${t.workspaceId}`;
    const del = await req('DELETE', `${path}?confirm=true`, t.adminToken);
    assert.equal(del.status, 202);
    const handle = api.deps.temporal.workflow.getHandle(platformWorkspaceDeletionWorkflowId(t.workspaceId, del.body.deletion_requested_at));
    await eventually(async () => (await handle.describe().catch(() => null))?.status.name === 'RUNNING', { what: 'the deletion workflow runs' });
    await handle.terminate('an operator ended it');
    const restored = await req('POST', `${path}/restore`, t.adminToken);
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.status, 'active');
    assert.equal(await api.deps.temporal.workflow.getHandle(handle.workflowId).result(), 'restored', 'the new run took the restore and ended');
  });

  it('POST /workspaces under an Idempotency-Key is made once and replayed', async () => {
    const t = await platformTenant(api);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Once' }, headers });
    assert.equal(first.status, 201);
    const again = await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Once' }, headers });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal((await req('GET', '/workspaces', t.adminToken)).body.total, 2);
    assertPlatformError(await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Other' }, headers }), 409, 'idempotency_key_reused');
  });

  it("two tenants: each other's workspace ids in the path are 404, never 403", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    const ws = `/workspaces/${a.workspaceId}`;
    for (const token of [b.adminToken, b.agentToken]) {
      assertPlatformError(await req('GET', ws, token), 404, 'not_found');
      assertPlatformError(await req('PATCH', ws, token, { name: 'x' }), 404, 'not_found');
      assertPlatformError(await req('DELETE', `${ws}?confirm=true`, token), 404, 'not_found');
      assertPlatformError(await req('POST', `${ws}/restore`, token), 404, 'not_found');
      const list = await req('GET', '/workspaces', token);
      assert.ok(!list.body.data.some((w: any) => w.id === a.workspaceId));
    }
    assert.equal((await req('GET', ws, a.agentToken)).body.name.startsWith('Studio'), true, 'untouched');
  });

  it('the OpenAPI document describes every workspace path', async () => {
    const doc = (await api.request('GET', '/platform/v1/openapi.json')).body;
    assert.ok(doc.paths['/platform/v1/workspaces'].get && doc.paths['/platform/v1/workspaces'].post);
    const one = doc.paths['/platform/v1/workspaces/{id}'];
    assert.ok(one.get && one.patch && one.delete);
    assert.ok(one.delete.parameters.some((p: any) => p.name === 'confirm' && p.in === 'query'));
    assert.ok(doc.paths['/platform/v1/workspaces/{id}/restore'].post);
  });
});
