// A platform workspace's purge (domain/platform/purge-workspace.ts, what its deletion
// workflow runs at purge_at) takes its webhook endpoints with it, deleted ones too, with
// their deliveries and attempts: their foreign key would refuse the workspace's delete
// otherwise. Another workspace's endpoints stay. (The rest of the purge:
// platform-workspaces.test.ts.)
import assert from 'node:assert/strict';
import { purgePlatformWorkspace } from '../../domain/platform/purge-workspace';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import { platformWorkspaceDeletionWorkflowId } from '../../workflows/platform-workspace/contract';
import type { TestApi } from '../support/api';
import { platformTenant, startPlatformApi } from '../support/platform';
import { insertAttempt, insertLoggedDelivery } from '../support/webhook-factories';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

test("a purged workspace's webhook endpoints, deliveries and attempts are gone; another workspace's stay", async () => {
  const t = await platformTenant(api);
  const other = await platformTenant(api);
  const register = async (token: string) => {
    // loopback is allowed in the test run (WEBHOOK_ALLOW_LOOPBACK); nothing listens there, and nothing is sent
    const res = await api.request('POST', '/platform/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const live = await register(t.adminToken);
  const removed = await register(t.adminToken);
  const theirs = await register(other.adminToken);
  const logged = await insertLoggedDelivery(api.deps.db, { endpointId: live, workspaceId: t.workspaceId, status: 'failed' });
  await insertAttempt(api.deps.db, logged, { attempt: 1, statusCode: 500, latencyMs: 5, error: 'HTTP 500' });
  await insertLoggedDelivery(api.deps.db, { endpointId: removed, workspaceId: t.workspaceId, status: 'succeeded' });
  assert.equal((await api.request('DELETE', `/platform/v1/webhooks/${removed}`, { token: t.adminToken })).status, 204);
  const kept = await insertLoggedDelivery(api.deps.db, { endpointId: theirs, workspaceId: other.workspaceId, status: 'succeeded' });

  const del = await api.request('DELETE', `/platform/v1/workspaces/${t.workspaceId}?confirm=true`, { token: t.adminToken });
  assert.equal(del.status, 202, JSON.stringify(del.body));
  const outcome = await purgePlatformWorkspace(api.deps.db, t.workspaceId, new Date(del.body.deletion_requested_at), { ticket: platformTicketWorkflowId, token: platformTokenExpiryWorkflowId });
  assert.equal(outcome, 'purged');

  const count = async (q: string, params: unknown[]) => Number((await api.deps.db.query(q, params)).rows[0].n);
  assert.equal(await count('SELECT count(*) AS n FROM platform_workspaces WHERE id = $1', [t.workspaceId]), 0);
  assert.equal(await count('SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = $1', [t.workspaceId]), 0);
  assert.equal(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1)', [[live, removed]]), 0);
  assert.equal(await count('SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = $1', [logged]), 0);
  assert.equal(await count('SELECT count(*) AS n FROM webhook_endpoints WHERE id = $1', [theirs]), 1);
  assert.equal(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE id = $1', [kept]), 1);
  await api.deps.temporal.workflow.getHandle(platformWorkspaceDeletionWorkflowId(t.workspaceId, del.body.deletion_requested_at)).terminate('test done').catch(() => undefined);
});
