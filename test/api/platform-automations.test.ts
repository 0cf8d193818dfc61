// Platform automations over HTTP (docs/platform.md, "Automations"): the CRUD in the platform
// shapes, who may manage them (managers and admins; agents read), the reach (another
// organisation's or workspace's rule, another environment's: 404; filters: empty pages)
// and the validation (400 naming the field); a workspace's deletion and purge.
import assert from 'node:assert/strict';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { purgePlatformWorkspace } from '../../domain/platform/purge-workspace';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import { platformWorkspaceDeletionWorkflowId } from '../../workflows/platform-workspace/contract';
import type { TestApi } from '../support/api';
import { assertPlatformError, platformMember, platformTenant, startPlatformApi } from '../support/platform';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

const rule = (extra: Record<string, unknown> = {}) => ({
  name: 'Escalate outages',
  trigger: 'ticket.created',
  conditions: [{ field: 'subject', operator: 'contains', value: 'outage' }],
  actions: [{ type: 'set_priority', value: 'critical' }],
  ...extra,
});
const post = (token: string, body: unknown) => api.request('POST', '/platform/v1/automations', { token, body });
const get = (token: string, path: string) => api.request('GET', `/platform/v1/automations${path}`, { token });
const patch = (token: string, id: string, body: unknown) => api.request('PATCH', `/platform/v1/automations/${id}`, { token, body });
const del = (token: string, id: string) => api.request('DELETE', `/platform/v1/automations/${id}`, { token });

async function created(token: string, body: Record<string, unknown> = rule()) {
  const res = await post(token, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('CRUD', () => {
  it('a manager creates, reads, lists, changes and removes a rule', async () => {
    const t = await platformTenant(api);
    const manager = await platformMember(api, t, 'manager');
    const a = await created(manager.token, rule({ conditions: undefined, name: '  Escalate  ' }));
    assert.match(a.id, /^aut_/);
    assert.deepEqual(Object.keys(a).sort(), ['actions', 'active', 'conditions', 'created_at', 'created_by', 'environment', 'id', 'name', 'trigger', 'updated_at', 'workspace_id']);
    assert.equal(a.name, 'Escalate');
    assert.deepEqual(a.conditions, [], 'no conditions: always matches');
    assert.equal(a.active, true);
    assert.equal(a.environment, 'test');
    assert.equal(a.workspace_id, t.workspaceId);
    assert.equal(a.created_by, manager.userId);

    assert.deepEqual((await get(manager.token, `/${a.id}`)).body, a);
    const second = await created(manager.token, rule({ trigger: 'ticket.updated', actions: [{ type: 'add_tag', value: ' vip ' }, { type: 'assign', user_id: t.agentUserId }] }));
    assert.deepEqual(second.actions, [{ type: 'add_tag', value: 'vip' }, { type: 'assign', user_id: t.agentUserId }]);
    const list = await get(manager.token, '?per_page=1');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((r: { id: string }) => r.id), [a.id], 'oldest first');
    assert.equal(list.body.total, 2);
    assert.match(list.body.next_page, /page=2/);
    assert.deepEqual((await get(manager.token, '?trigger=ticket.updated')).body.data.map((r: { id: string }) => r.id), [second.id]);

    const changed = await patch(manager.token, a.id, { active: false, conditions: [{ field: 'priority', operator: 'in', value: ['low', 'normal'] }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.active, false);
    assert.deepEqual(changed.body.conditions, [{ field: 'priority', operator: 'in', value: ['low', 'normal'] }]);
    assert.deepEqual(changed.body.actions, a.actions, 'what the PATCH does not name stays');
    assert.deepEqual((await get(manager.token, '?active=false')).body.data.map((r: { id: string }) => r.id), [a.id]);

    assert.equal((await del(manager.token, a.id)).status, 204);
    assertPlatformError(await get(manager.token, `/${a.id}`), 404, 'not_found');
    assertPlatformError(await del(manager.token, a.id), 404, 'not_found');
  });
});

describe('Idempotency-Key', () => {
  it('replays a POST under the same key (one rule), refuses another body under it (409)', async () => {
    const t = await platformTenant(api);
    const headers = { 'Idempotency-Key': `aut-${Date.now()}` };
    const first = await api.request('POST', '/platform/v1/automations', { token: t.adminToken, body: rule(), headers });
    const again = await api.request('POST', '/platform/v1/automations', { token: t.adminToken, body: rule(), headers });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assertPlatformError(await api.request('POST', '/platform/v1/automations', { token: t.adminToken, body: rule({ name: 'Other' }), headers }), 409);
    assert.equal((await get(t.adminToken, '')).body.total, 1);
  });
});

describe('roles and reach', () => {
  let t: PlatformTenant;
  let id: string;
  beforeAll(async () => {
    t = await platformTenant(api);
    id = (await created(t.adminToken)).id;
  });

  it('an agent reads rules but may not manage them (403)', async () => {
    assert.equal((await get(t.agentToken, `/${id}`)).status, 200);
    assert.equal((await get(t.agentToken, '')).body.total, 1);
    assertPlatformError(await post(t.agentToken, rule()), 403, 'forbidden');
    assertPlatformError(await patch(t.agentToken, id, { name: 'x' }), 403, 'forbidden');
    assertPlatformError(await del(t.agentToken, id), 403, 'forbidden');
  });

  it("another organisation's rule and workspace are 404s; its filter an empty page", async () => {
    const other = await platformTenant(api);
    for (const res of [await get(other.adminToken, `/${id}`), await patch(other.adminToken, id, { name: 'x' }), await del(other.adminToken, id)]) assertPlatformError(res, 404, 'not_found');
    assertPlatformError(await post(other.adminToken, rule({ workspace_id: t.workspaceId })), 404, 'not_found');
    const filtered = await get(other.adminToken, `?workspace_id=${t.workspaceId}`);
    assert.equal(filtered.status, 200);
    assert.deepEqual(filtered.body.data, []);
    assertPlatformError(await get(t.adminToken, '/not-an-id'), 404, 'not_found');
  });

  it("a live token does not see a test rule (each acts on its own environment's tickets)", async () => {
    const live = await platformMember(api, t, 'admin', { environment: 'live' });
    assertPlatformError(await get(live.token, `/${id}`), 404, 'not_found');
    assert.equal((await get(live.token, '')).body.total, 0);
    const own = await created(live.token);
    assert.equal(own.environment, 'live');
  });

  it("an organisation admin manages any workspace's rules; a manager of one workspace does not see another's", async () => {
    const ws = await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Second' } });
    assert.equal(ws.status, 201);
    const there = await created(t.adminToken, rule({ workspace_id: ws.body.id }));
    assert.equal(there.workspace_id, ws.body.id);
    assert.deepEqual((await get(t.adminToken, `?workspace_id=${ws.body.id}`)).body.data.map((r: { id: string }) => r.id), [there.id]);
    const manager = await platformMember(api, t, 'manager');
    assertPlatformError(await get(manager.token, `/${there.id}`), 404, 'not_found');
    assertPlatformError(await post(manager.token, rule({ workspace_id: ws.body.id })), 404, 'not_found');
    assert.deepEqual((await get(manager.token, `?workspace_id=${ws.body.id}`)).body.data, []);
  });
});

describe('validation: 400 validation_failed naming the field', () => {
  let t: PlatformTenant;
  let id: string;
  beforeAll(async () => {
    t = await platformTenant(api);
    id = (await created(t.adminToken)).id;
  });
  const refused = async (body: unknown, field: string, via: 'post' | 'patch' = 'post') => {
    const res = via === 'post' ? await post(t.adminToken, body) : await patch(t.adminToken, id, body);
    assertPlatformError(res, 400, 'validation_failed');
    assert.ok(Object.keys(res.body.error.details ?? {}).includes(field), `${field} in ${JSON.stringify(res.body.error)}`);
  };

  it('the JSON shapes', async () => {
    await refused(rule({ actions: undefined }), 'actions');
    await refused(rule({ actions: [] }), 'actions');
    await refused(rule({ trigger: 'ticket.deleted' }), 'trigger');
    await refused(rule({ name: '   ' }), 'name');
    await refused(rule({ colour: 'red' }), '_');
    await refused(rule({ actions: [{ type: 'send_email', value: 'x' }] }), 'actions.0.type');
    await refused(rule({ actions: [{ type: 'set_priority', value: 'urgent' }] }), 'actions.0.value');
    await refused(rule({ conditions: [{ field: 'mood', operator: 'equals', value: 'x' }] }), 'conditions.0.field');
    await refused(rule({ conditions: [{ field: 'status', operator: 'equals' }] }), 'conditions.0.value');
    await refused({}, '_', 'patch');
    await refused({ actions: [] }, 'actions', 'patch');
    const page = await get(t.adminToken, '?per_page=101');
    assertPlatformError(page, 400, 'validation_failed');
  });

  it('the field and operator matrix, and duplicate actions', async () => {
    await refused(rule({ conditions: [{ field: 'status', operator: 'contains', value: 'open' }] }), 'conditions.0.operator');
    await refused(rule({ conditions: [{ field: 'status', operator: 'equals', value: 'archived' }] }), 'conditions.0.value');
    await refused(rule({ conditions: [{ field: 'priority', operator: 'in', value: 'high' }] }), 'conditions.0.value');
    await refused(rule({ conditions: [{ field: 'tags', operator: 'contains', value: null }] }), 'conditions.0.value');
    await refused(rule({ actions: [{ type: 'set_status', value: 'open' }, { type: 'set_status', value: 'closed' }] }), 'actions.1.type');
    await refused({ conditions: [{ field: 'subject', operator: 'in', value: ['x'] }] }, 'conditions.0.operator', 'patch');
  });

  it("references: a channel or an assignee that is not the workspace's", async () => {
    const other = await platformTenant(api);
    await refused(rule({ conditions: [{ field: 'channel_id', operator: 'equals', value: other.channelIds.email }] }), 'conditions.0.value');
    await refused(rule({ conditions: [{ field: 'assignee_id', operator: 'in', value: [null, other.agentUserId] }] }), 'conditions.0.value');
    await refused(rule({ actions: [{ type: 'assign', user_id: other.agentUserId }] }), 'actions.0.user_id');
    await refused({ actions: [{ type: 'assign', user_id: 'usr_nobody' }] }, 'actions.0.user_id', 'patch');
    const ok = await post(t.adminToken, rule({ conditions: [{ field: 'channel_id', operator: 'in', value: [t.channelIds.email, t.channelIds.chat] }], actions: [{ type: 'assign', user_id: null }] }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });
});

describe('with the workspace', () => {
  it('a workspace pending deletion takes no new or changed rule (409) but may lose one; the purge removes the rest', async () => {
    const t = await platformTenant(api);
    const other = await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Stays' } });
    const orgAdmin = await platformMember(api, t, 'admin', { workspaceId: other.body.id, isOrgAdmin: true });
    const keep = await created(t.adminToken);
    const gone = await created(t.adminToken);
    const deletion = await api.request('DELETE', `/platform/v1/workspaces/${t.workspaceId}?confirm=true`, { token: t.adminToken });
    assert.equal(deletion.status, 202);
    assertPlatformError(await post(orgAdmin.token, rule({ workspace_id: t.workspaceId })), 409, 'conflict');
    assertPlatformError(await patch(orgAdmin.token, keep.id, { name: 'x' }), 409, 'conflict');
    assert.equal((await del(orgAdmin.token, gone.id)).status, 204);
    // what the deletion workflow's activity does at purge_at: the rules go with the workspace's row
    const outcome = await purgePlatformWorkspace(api.deps.db, t.workspaceId, new Date(deletion.body.deletion_requested_at), { ticket: platformTicketWorkflowId, token: platformTokenExpiryWorkflowId });
    assert.equal(outcome, 'purged');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_automations WHERE workspace_id = $1`, [t.workspaceId]);
    assert.equal(rows[0].n, 0);
    assertPlatformError(await get(orgAdmin.token, `/${keep.id}`), 404, 'not_found');
    await api.deps.temporal.workflow.getHandle(platformWorkspaceDeletionWorkflowId(t.workspaceId, deletion.body.deletion_requested_at)).terminate('test done').catch(() => undefined);
  });
});
