// "No ticket without a workflow, and no workflow without a ticket", proven with real
// failures: Temporal unreachable, and Postgres refusing the insert.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../api/app';
import { startApi, type TestApi } from '../support/api';
import { assertError, tenantWithPlayer, type Tenant } from '../support/tickets';

let api: TestApi;
let t: Tenant;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

const countTickets = async (title: string) =>
  (await api.deps.db.query('SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND title = $2', [t.workspace.id, title])).rows[0].n;

test('Temporal unreachable: 503 and no ticket row', async () => {
  // the same app, but its Temporal client points at a port nothing listens on
  const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
  const app = createApp({ ...api.deps, temporal: deadTemporal });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const port = (server.address() as any).port;
    const res = await fetch(`http://127.0.0.1:${port}/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'temporal-down', body: 'x' }),
    });
    assertError({ status: res.status, body: await res.json() }, 503, 'service_unavailable');
    assert.equal(await countTickets('temporal-down'), 0);
  } finally {
    server.close();
  }
});

test('Postgres refuses the insert: 503, the workflow ends, no ticket row', async () => {
  const marker = `pg-refuses-${Date.now()}`;
  // A constraint that rejects exactly this ticket makes every insert attempt fail in Postgres.
  await api.deps.db.query(`ALTER TABLE tickets ADD CONSTRAINT refuse_${marker.replace(/-/g, '_')} CHECK (title <> '${marker}') NOT VALID`);
  try {
    const res = await api.request('POST', '/v1/tickets', {
      token: t.token,
      body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: marker, body: 'x' },
    });
    assertError(res, 503, 'service_unavailable');
    assert.equal(await countTickets(marker), 0);
    // the workflow that tried to store it has ended: nothing is left running without a ticket
    const started = await api.deps.temporal.workflow.list({ query: `WorkspaceId = '${t.workspace.id}'` });
    let found = 0;
    for await (const wf of started) {
      const desc = await api.deps.temporal.workflow.getHandle(wf.workflowId).describe();
      if (desc.status.name === 'RUNNING') continue;
      found++;
      assert.equal(await api.deps.temporal.workflow.getHandle(wf.workflowId).result(), 'creation_failed');
      assert.match(wf.workflowId, /^ticket\/tkt_/);
    }
    assert.equal(found, 1);
  } finally {
    await api.deps.db.query(`ALTER TABLE tickets DROP CONSTRAINT refuse_${marker.replace(/-/g, '_')}`);
  }
});
