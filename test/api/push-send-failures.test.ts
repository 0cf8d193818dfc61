// A send and its workflow exist together or not at all: the send, its rows and its entry
// in the workflow-start outbox commit in one transaction, and the `push` worker's start
// dispatcher starts its workflow, once. Temporal unreachable from the API changes nothing
// in the answer (202): the request never calls it. A retry under the same Idempotency-Key
// after a lost answer replays the first send, never a second.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../api/app';
import { pushSendStart } from '../../api/push/notifications/gateway';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import { DomainError } from '../../domain/errors';
import { createSend } from '../../domain/push/send';
import { pushSendWorkflowId } from '../../workflows/push-send/contract';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, startPushApi } from '../support/push';
import { insertDevices, pushTenant, sendOf, sendResult, statusCounts, type PushTenant } from '../support/push-send';
import { eventually } from '../support/eventually';

let api: TestApi;
let tenant: PushTenant;
beforeAll(async () => {
  api = await startPushApi();
  tenant = await pushTenant(api);
});
afterAll(() => api?.stop());

/** POST /notifications/send to the same app, but its Temporal client points at a port nothing listens on. */
async function sendWithDeadTemporal(body: object, headers: Record<string, string> = {}): Promise<Response> {
  const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
  const server = createApp({ ...api.deps, temporal: deadTemporal }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as any).port}/api/v1/notifications/send`, {
      method: 'POST',
      headers: { ...apiKeyHeader(tenant.apiKey), 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } finally {
    server.close();
  }
}

const sendsTitled = async (title: string) => (await api.deps.db.query(`SELECT id FROM push_sends WHERE title = $1`, [title])).rows.map((r) => r.id);

async function runsOf(sendId: string): Promise<number> {
  let runs = 0;
  for await (const _ of api.deps.temporal.workflow.list({ query: `WorkflowId = '${pushSendWorkflowId(sendId)}'` })) runs++;
  return runs;
}

test('Temporal unreachable: 202, the send and its outbox entry committed, and it is pushed once a dispatcher reaches Temporal', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 2);
  const title = `temporal-down-${Date.now()}`;
  const res = await sendWithDeadTemporal({ appId: tenant.appId, deviceIds: devices.map((d) => d.id), title, body: 'x' });
  const body = JSON.parse(await res.text());
  assert.equal(res.status, 202, JSON.stringify(body));
  assert.equal(body.queued, 2);
  assert.equal(body.notificationIds.length, 2);
  const [sendId] = await sendsTitled(title);
  assert.equal(await sendOf(api.deps.db, body.notificationIds[0]), sendId);
  // the suite's push worker runs the start dispatcher of the `push` queue, which reaches Temporal
  assert.deepEqual(await sendResult(api.deps.temporal, sendId), { sent: 2, failed: 0, pages: 1 });
  assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: 2 });
  assert.equal(await findWorkflowStart(api.deps.db, pushSendWorkflowId(sendId)), null);
  await eventually(async () => (await runsOf(sendId)) === 1);
});

test('the send, its rows and its outbox entry commit together: a refused transaction leaves none of them', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 2);
  const title = `lease-lost-${Date.now()}`;
  // a key whose lease this request does not hold (a retry took it over): the send is refused
  const idempotency = { scope: 'nobody', key: title, token: 'not-the-lease', resourceId: null };
  const workflowIds: string[] = [];
  const attempt = createSend(
    api.deps.db,
    { appId: tenant.appId, title, body: 'x', deepLink: null, customData: {}, deviceIds: devices.map((d) => d.id) },
    { idempotency, workflowOf: (sendId) => (workflowIds.push(pushSendWorkflowId(sendId)), pushSendStart(sendId)) },
  );
  await assert.rejects(attempt, (err: unknown) => err instanceof DomainError && err.code === 'idempotency_request_in_progress');
  assert.deepEqual(await sendsTitled(title), []);
  assert.equal(workflowIds.length, 1, 'the entry was written in the refused transaction');
  assert.equal(await findWorkflowStart(api.deps.db, workflowIds[0]), null);
});

const sendWithKey = (key: string, deviceIds: string[], title: string) =>
  api.request('POST', '/api/v1/notifications/send', {
    headers: { ...apiKeyHeader(tenant.apiKey), 'idempotency-key': key },
    body: { appId: tenant.appId, deviceIds, title, body: 'x' },
  });
test('the send was committed but its answer never stored: a retry after the lease replays the same notificationIds, no second send', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 3);
  const key = `send-lease-${Date.now()}`;
  const first = await sendWithKey(key, devices.map((d) => d.id), key);
  assert.equal(first.status, 202, JSON.stringify(first.body));
  // the state a request leaves when it dies (or PostgreSQL goes away) between its commit and storing its answer
  const { rowCount } = await api.deps.db.query(
    `UPDATE idempotency_keys SET status_code = NULL, response = NULL, locked_until = now() - interval '1 second' WHERE key = $1`,
    [key],
  );
  assert.equal(rowCount, 1);
  const retry = await sendWithKey(key, devices.map((d) => d.id), key);
  assert.equal(retry.status, 202, JSON.stringify(retry.body));
  assert.deepEqual(retry.body, first.body);
  assert.equal((await sendsTitled(key)).length, 1, 'a second send to the same devices');
  const again = await sendWithKey(key, devices.map((d) => d.id), key);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(again.body, first.body);
});

test('Temporal unreachable under an Idempotency-Key: 202, a retry replays the same notificationIds, one send pushed once', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 2);
  const key = `send-temporal-down-${Date.now()}`;
  const res = await sendWithDeadTemporal({ appId: tenant.appId, deviceIds: devices.map((d) => d.id), title: key, body: 'x' }, { 'idempotency-key': key });
  const first = JSON.parse(await res.text()); // parsed in this realm, to compare with deepEqual
  assert.equal(res.status, 202, JSON.stringify(first));
  const retry = await sendWithKey(key, devices.map((d) => d.id), key);
  assert.equal(retry.status, 202, JSON.stringify(retry.body));
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(retry.body, first);
  const sends = await sendsTitled(key);
  assert.equal(sends.length, 1);
  assert.deepEqual(await sendResult(api.deps.temporal, sends[0]), { sent: 2, failed: 0, pages: 1 });
});

test('an unknown app is a 404 whatever the devices', async () => {
  const res = await api.request('POST', '/api/v1/notifications/send', {
    headers: apiKeyHeader(tenant.apiKey),
    body: { appId: '00000000-0000-4000-8000-000000000000', deviceIds: ['x'], title: 't', body: 'b' },
  });
  assertPushError(res, 404, 'RESOURCE_NOT_FOUND');
});
