// No ticket without a workflow, and no workflow without a ticket, proven with real
// failures: Temporal unreachable, PostgreSQL unreachable, and PostgreSQL refusing the
// insert. The create path: row + workflow-start outbox entry in one transaction
// (docs/tickets.md); the ticketing worker's start dispatcher starts the workflow.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../api/app';
import { sql } from '../../db/db';
import { startApi, type TestApi } from '../support/api';
import { startTcpProxy, viaProxy, type TcpProxy } from '../support/tcp-proxy';
import { assertError, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { eventually } from '../support/eventually';
import { findWorkflowStart, forgetWorkflowStarts } from '../../db/repositories/workflow-starts';
import { TICKET_WORKFLOW_TYPE, TICKETING_QUEUE, ticketWorkflowId } from '../../workflows/ticket/contract';

let api: TestApi;
let t: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

const countTickets = async (title: string) =>
  (await api.deps.db.query('SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND title = $2', [t.workspace.id, title])).rows[0].n;

async function withApp<T>(app: ReturnType<typeof createApp>, fn: (base: string) => Promise<T>): Promise<T> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as any).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const createBody = (title: string) => JSON.stringify({ workspaceId: t.workspace.id, playerId: t.player.playerId, title, body: 'x' });

test('Temporal unreachable: the create is accepted (201, row stored), its workflow starts from the outbox', async () => {
  // the same app, but its Temporal client points at a port nothing listens on: the answer
  // does not wait on Temporal, and the running start dispatcher starts the workflow
  const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
  const res = await withApp(createApp({ ...api.deps, temporal: deadTemporal }), (base) =>
    fetch(`${base}/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: createBody('temporal-down'),
    }),
  );
  const ticket: any = await res.json();
  assert.equal(res.status, 201, JSON.stringify(ticket));
  assert.equal(await countTickets('temporal-down'), 1);
  // the entry the create committed with the row, unless the dispatcher already took it
  const entry = await findWorkflowStart(api.deps.db, ticketWorkflowId(ticket.id));
  if (entry) {
    assert.equal(entry.workflowType, TICKET_WORKFLOW_TYPE);
    assert.equal(entry.taskQueue, TICKETING_QUEUE);
    assert.equal((entry.args[0] as { ticketId: string; stored: boolean }).ticketId, ticket.id);
    assert.equal((entry.args[0] as { stored: boolean }).stored, true);
  }
  const got = await api.request('GET', `/v1/tickets/${ticket.id}`, { token: t.token });
  assert.equal(got.status, 200);
  assert.equal(got.body.status, 'open');
  // the dispatcher of the suite's ticketing worker starts it, and triage fills the row
  await eventually(async () => (await api.deps.temporal.workflow.getHandle(ticketWorkflowId(ticket.id)).describe().catch(() => null))?.status.name === 'RUNNING');
  await eventually(async () => (await api.request('GET', `/v1/tickets/${ticket.id}`, { token: t.token })).body.aiTriaged === true);
  await eventually(async () => (await findWorkflowStart(api.deps.db, ticketWorkflowId(ticket.id))) === null);
});

test('a change that arrives before the dispatcher started the workflow starts it from the pending entry', async () => {
  const title = `parked-${Date.now()}`;
  const parked = `parked-${process.pid}`;
  // the create's transaction moves its entry to a queue no dispatcher claims, before it
  // commits: the ticket's workflow waits as if the ticketing worker were down
  const db = Object.create(api.deps.db) as typeof api.deps.db;
  db.transaction = (fn) =>
    api.deps.db.transaction(async (m) => {
      const out = await fn(m);
      await sql(m, `UPDATE workflow_starts SET task_queue = $1 WHERE task_queue = 'ticketing' AND args->0->>'title' = $2`, [parked, title]);
      return out;
    });
  const res = await withApp(createApp({ ...api.deps, db }), (base) =>
    fetch(`${base}/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: createBody(title),
    }),
  );
  const ticket = JSON.parse(await res.text());
  assert.equal(res.status, 201, JSON.stringify(ticket));
  const workflowId = ticketWorkflowId(ticket.id);
  try {
    assert.equal((await findWorkflowStart(api.deps.db, workflowId))?.taskQueue, parked);
    await assert.rejects(api.deps.temporal.workflow.getHandle(workflowId).describe());
    // the gateway finds the entry by workflow id and starts the workflow with the change
    const patched = await api.request('PATCH', `/v1/tickets/${ticket.id}`, { token: t.token, body: { priority: 'urgent' } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.priority, 'urgent');
    const run = await api.deps.temporal.workflow.getHandle(workflowId).describe();
    assert.equal(run.type, TICKET_WORKFLOW_TYPE);
    assert.equal(run.taskQueue, TICKETING_QUEUE);
  } finally {
    await forgetWorkflowStarts(api.deps.db, [workflowId]);
  }
});

describe('PostgreSQL unreachable', () => {
  let proxy: TcpProxy;
  let down: TestApi;
  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    down = await startApi({ DATABASE_URL: viaProxy(process.env.DATABASE_URL!, proxy) });
  });
  afterAll(async () => {
    await down?.stop();
    await proxy?.close();
  });

  test('503 service_unavailable with Retry-After, within 10 s; served again once it is back', async () => {
    proxy.down();
    for (const [method, path] of [
      ['POST', '/v1/tickets'],
      ['GET', `/v1/tickets?workspaceId=${t.workspace.id}`],
    ] as const) {
      const res = await down.request(method, path, { token: t.token, rawBody: method === 'POST' ? createBody('pg-down') : undefined });
      assertError(res, 503, 'service_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
    proxy.up();
    const res = await eventually(async () => {
      const r = await down.request('POST', '/v1/tickets', { token: t.token, rawBody: createBody('pg-back') });
      return r.status === 201 && r;
    });
    assert.equal(res.status, 201);
  });
});

test('Postgres refuses the insert (a bug, 500): nothing stored, no outbox entry, no workflow', async () => {
  const marker = `pg-refuses-${Date.now()}`;
  // A constraint that rejects exactly this ticket makes the insert fail in Postgres.
  await api.deps.db.query(`ALTER TABLE tickets ADD CONSTRAINT refuse_${marker.replace(/-/g, '_')} CHECK (title <> '${marker}') NOT VALID`);
  try {
    const res = await api.request('POST', '/v1/tickets', {
      token: t.token,
      body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: marker, body: 'x' },
    });
    assertError(res, 500, 'internal_error');
    assert.equal(await countTickets(marker), 0);
    const pending = await api.deps.db.query(`SELECT count(*)::int AS n FROM workflow_starts WHERE args->0->>'title' = $1`, [marker]);
    assert.equal(pending.rows[0].n, 0);
  } finally {
    await api.deps.db.query(`ALTER TABLE tickets DROP CONSTRAINT refuse_${marker.replace(/-/g, '_')}`);
  }
});
