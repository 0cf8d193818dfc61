// Platform SLA policies over HTTP (docs/platform.md, "Workspaces"): the workspace detail
// shows the documented defaults until an admin stores the workspace's own with
// PUT /workspaces/{id}/sla-policies; agents and managers are refused (403), another
// tenant gets a 404, a workspace pending deletion a 409, and malformed bodies a 400.
import assert from 'node:assert/strict';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformRole } from '../../domain/platform/types';
import type { TestApi } from '../support/api';
import { assertPlatformError, platformTenant, startPlatformApi, platformMember } from '../support/platform';

const DEFAULTS = [
  { priority: 'critical', first_response_minutes: 60, resolution_minutes: 480 },
  { priority: 'high', first_response_minutes: 240, resolution_minutes: 1440 },
  { priority: 'normal', first_response_minutes: 480, resolution_minutes: 4320 },
  { priority: 'low', first_response_minutes: 1440, resolution_minutes: 10080 },
];

const CUSTOM = [
  { priority: 'low', first_response_minutes: 2880, resolution_minutes: 20160 },
  { priority: 'critical', first_response_minutes: 15, resolution_minutes: 120 },
  { priority: 'normal', first_response_minutes: 240, resolution_minutes: 2880 },
  { priority: 'high', first_response_minutes: 60, resolution_minutes: 525600 },
];

/** CUSTOM in priority order, as the detail answers it. */
const CUSTOM_ORDERED = ['critical', 'high', 'normal', 'low'].map((p) => CUSTOM.find((c) => c.priority === p)!);

describe('platform SLA policies', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPlatformApi();
  });
  afterAll(() => api?.stop());

  const member = (t: PlatformTenant, role: PlatformRole, workspaceId = t.workspaceId) => platformMember(api, t, role, { workspaceId });

  const req = (method: string, path: string, token: string, body?: unknown) => api.request(method, `/platform/v1${path}`, { token, body });

  it('shows the defaults until an admin stores the workspace policies; GET then shows the stored ones', async () => {
    const t = await platformTenant(api);
    const ws = `/workspaces/${t.workspaceId}`;
    const before = await req('GET', ws, t.agentToken);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.deepEqual(before.body.sla_policies, DEFAULTS);

    const admin = await member(t, 'admin');
    const put = await req('PUT', `${ws}/sla-policies`, admin.token, { policies: CUSTOM });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.id, t.workspaceId);
    assert.deepEqual(put.body.sla_policies, CUSTOM_ORDERED);
    assert.ok(put.body.channels.length > 0 && typeof put.body.agent_count === 'number', 'the full detail');

    assert.deepEqual((await req('GET', ws, t.agentToken)).body.sla_policies, CUSTOM_ORDERED);
    // an organisation admin may too; putting the defaults back stores them
    const again = await req('PUT', `${ws}/sla-policies`, t.adminToken, { policies: DEFAULTS });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual((await req('GET', ws, t.agentToken)).body.sla_policies, DEFAULTS);

    // another workspace of the organisation keeps its own (the defaults)
    const second = await req('POST', '/workspaces', t.adminToken, { name: 'Second' });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.deepEqual(second.body.sla_policies, DEFAULTS);
  });

  it('refuses agents and managers (403), another tenant (404) and a workspace pending deletion (409)', async () => {
    const t = await platformTenant(api);
    const other = await platformTenant(api);
    const path = `/workspaces/${t.workspaceId}/sla-policies`;
    assertPlatformError(await req('PUT', path, t.agentToken, { policies: CUSTOM }), 403, 'forbidden');
    const manager = await member(t, 'manager');
    assertPlatformError(await req('PUT', path, manager.token, { policies: CUSTOM }), 403, 'forbidden');
    assertPlatformError(await req('PUT', path, other.adminToken, { policies: CUSTOM }), 404, 'not_found');
    assertPlatformError(await req('PUT', '/workspaces/ws_nope/sla-policies', t.adminToken, { policies: CUSTOM }), 404, 'not_found');
    assert.deepEqual((await req('GET', `/workspaces/${t.workspaceId}`, t.agentToken)).body.sla_policies, DEFAULTS, 'untouched');

    // a second workspace of the same organisation is unreachable to a token of the first (unless org admin)
    const second = await req('POST', '/workspaces', t.adminToken, { name: 'Second' });
    const admin = await member(t, 'admin');
    assertPlatformError(await req('PUT', `/workspaces/${second.body.id}/sla-policies`, admin.token, { policies: CUSTOM }), 404, 'not_found');

    const del = await req('DELETE', `/workspaces/${second.body.id}?confirm=true`, t.adminToken);
    assert.equal(del.status, 202, JSON.stringify(del.body));
    assertPlatformError(await req('PUT', `/workspaces/${second.body.id}/sla-policies`, t.adminToken, { policies: CUSTOM }), 409, 'conflict');
  });

  it('refuses malformed bodies (400) and stores nothing', async () => {
    const t = await platformTenant(api);
    const path = `/workspaces/${t.workspaceId}/sla-policies`;
    const replace = (i: number, change: Record<string, unknown>) => CUSTOM.map((p, j) => (j === i ? { ...p, ...change } : p));
    const bad: [string, unknown][] = [
      ['no body', undefined],
      ['no policies', {}],
      ['a missing priority', { policies: CUSTOM.slice(1) }],
      ['a duplicate priority', { policies: replace(0, { priority: 'high' }) }],
      ['five policies', { policies: [...CUSTOM, CUSTOM[0]] }],
      ['an unknown priority', { policies: replace(0, { priority: 'urgent' }) }],
      ['0 minutes', { policies: replace(1, { first_response_minutes: 0 }) }],
      ['negative minutes', { policies: replace(1, { resolution_minutes: -5 }) }],
      ['more than a year', { policies: replace(3, { resolution_minutes: 525601 }) }],
      ['a fraction', { policies: replace(2, { first_response_minutes: 1.5 }) }],
      ['first response after resolution', { policies: replace(2, { first_response_minutes: 3000, resolution_minutes: 2880 }) }],
      ['a string', { policies: replace(0, { first_response_minutes: '15' }) }],
      ['policies a string', { policies: 'all' }],
      ['a missing field', { policies: CUSTOM.map(({ resolution_minutes: _r, ...p }) => p) }],
      ['an extra field in a policy', { policies: replace(0, { breach_action: 'page' }) }],
      ['an extra field in the body', { policies: CUSTOM, workspace_id: t.workspaceId }],
    ];
    for (const [what, body] of bad) {
      const res = await req('PUT', path, t.adminToken, body);
      assert.equal(res.status, 400, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
      assertPlatformError(res, 400, 'validation_failed');
    }
    assert.deepEqual((await req('GET', `/workspaces/${t.workspaceId}`, t.agentToken)).body.sla_policies, DEFAULTS);
    // the smallest and largest times are allowed, first response equal to resolution too
    const edge = CUSTOM.map((p, i) => ({ ...p, first_response_minutes: i === 0 ? 1 : 525600, resolution_minutes: i === 0 ? 1 : 525600 }));
    const ok = await req('PUT', path, t.adminToken, { policies: edge });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('the OpenAPI document describes the PUT', async () => {
    const doc = (await api.request('GET', '/platform/v1/openapi.json')).body;
    const put = doc.paths['/platform/v1/workspaces/{id}/sla-policies']?.put;
    assert.ok(put, 'registered');
    assert.ok(put.requestBody && put.responses['200'] && put.responses['403'] && put.responses['409']);
  });
});
