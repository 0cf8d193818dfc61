// GET and PATCH /v1/workspaces/{workspace_id}/settings over HTTP.
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../domain/workspaces/settings.rules';
import { assertError, startApi, type TestApi } from '../support/api';
import { createApiKey, createTenant } from '../support/factories';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

const path = (ws: string) => `/v1/workspaces/${ws}/settings`;

describe('workspace settings', () => {
  it('GET returns the defaults, and stored overrides over them', async () => {
    const t = await createTenant(api.deps.db);
    const res = await api.request('GET', path(t.workspace.id), { token: t.key.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { workspaceId: t.workspace.id, ...DEFAULT_SETTINGS });

    const custom = await createTenant(api.deps.db, { settings: { autoCloseHours: 24, sla: { low: { resolutionMinutes: 99999 } } } });
    const reader = await createApiKey(api.deps.db, custom.org, { scopes: ['tickets:read'] });
    const got = await api.request('GET', path(custom.workspace.id), { token: reader.key });
    assert.equal(got.status, 200);
    assert.equal(got.body.autoCloseHours, 24);
    assert.deepEqual(got.body.sla.low, { firstResponseMinutes: DEFAULT_SETTINGS.sla.low.firstResponseMinutes, resolutionMinutes: 99999 });
    assert.deepEqual(got.body.sla.urgent, DEFAULT_SETTINGS.sla.urgent);
  });

  it('PATCH merges deeply, persists, and null resets to the default', async () => {
    const t = await createTenant(api.deps.db);
    const patch = (body: unknown) => api.request('PATCH', path(t.workspace.id), { token: t.key.key, body });
    const a = await patch({ autoCloseHours: 48 });
    assert.equal(a.status, 200);
    assert.equal(a.body.autoCloseHours, 48);
    assert.deepEqual(a.body.sla, DEFAULT_SETTINGS.sla);

    const b = await patch({ sla: { urgent: { firstResponseMinutes: 15 } } });
    assert.equal(b.body.autoCloseHours, 48, 'earlier change kept');
    assert.deepEqual(b.body.sla.urgent, { firstResponseMinutes: 15, resolutionMinutes: DEFAULT_SETTINGS.sla.urgent.resolutionMinutes });
    assert.deepEqual(b.body.sla.high, DEFAULT_SETTINGS.sla.high);

    const got = await api.request('GET', path(t.workspace.id), { token: t.key.key });
    assert.deepEqual(got.body, b.body);
    const { rows } = await api.deps.db.query('SELECT settings FROM workspaces WHERE id = $1', [t.workspace.id]);
    assert.deepEqual(rows[0].settings, { autoCloseHours: 48, sla: { urgent: { firstResponseMinutes: 15 } } }, 'only overrides are stored');

    const reset = await patch({ autoCloseHours: null, sla: { urgent: null } });
    assert.deepEqual(reset.body, { workspaceId: t.workspace.id, ...DEFAULT_SETTINGS });
    assert.deepEqual((await patch({})).body, reset.body, 'an empty patch changes nothing');
  });

  it('PATCH rejects invalid settings with 400 and leaves them unchanged', async () => {
    const t = await createTenant(api.deps.db);
    const patch = (body: unknown) => api.request('PATCH', path(t.workspace.id), { token: t.key.key, body });
    for (const body of [
      { autoCloseHours: 0 },
      { autoCloseHours: 8761 },
      { autoCloseHours: 1.5 },
      { autoCloseHours: '72' },
      { autoCloseHours: -3 },
      { sla: { urgent: { firstResponseMinutes: 0 } } },
      { sla: { urgent: { firstResponseMinutes: -5 } } },
      { sla: { urgent: { resolutionMinutes: 2.5 } } },
      { sla: { urgent: { firstResponseMinutes: 10_000 } } }, // after the default 480-minute resolution
      { sla: { critical: { firstResponseMinutes: 10 } } },
      { sla: { urgent: { responseMinutes: 10 } } },
      { sla: [] },
      { autoCloseDays: 3 },
      [],
    ]) {
      assertError(await patch(body), 400, 'validation_error');
    }
    assertError(await api.request('PATCH', path(t.workspace.id), { token: t.key.key, rawBody: '{"autoCloseHours":' }), 400, 'validation_error');
    assert.equal((await patch({ autoCloseHours: 8760 })).status, 200);
    assert.equal((await patch({ autoCloseHours: 1 })).status, 200);
    const got = await api.request('GET', path(t.workspace.id), { token: t.key.key });
    assert.equal(got.body.autoCloseHours, 1);
    assert.deepEqual(got.body.sla, DEFAULT_SETTINGS.sla);
  });

  it('401 without a key; 403 for a missing scope or a foreign workspace', async () => {
    const t = await createTenant(api.deps.db);
    assertError(await api.request('GET', path(t.workspace.id)), 401, 'unauthorized');
    const writer = await createApiKey(api.deps.db, t.org, { scopes: ['tickets:read', 'tickets:write'] });
    assertError(await api.request('PATCH', path(t.workspace.id), { token: writer.key, body: { autoCloseHours: 5 } }), 403, 'forbidden');
    const playersOnly = await createApiKey(api.deps.db, t.org, { scopes: ['players:read'] });
    assertError(await api.request('GET', path(t.workspace.id), { token: playersOnly.key }), 403, 'forbidden');
    const other = await createTenant(api.deps.db);
    assertError(await api.request('GET', path(t.workspace.id), { token: other.key.key }), 403, 'forbidden');
    assertError(await api.request('PATCH', path(t.workspace.id), { token: other.key.key, body: { autoCloseHours: 5 } }), 403, 'forbidden');
    assertError(await api.request('GET', path('ws_missing'), { token: t.key.key }), 403, 'forbidden');
  });
});
