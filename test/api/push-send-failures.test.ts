// A send and its workflow exist together or not at all: Temporal unreachable is a 503
// with nothing stored; a send whose rows committed but whose workflow never started (the
// API died in between) is started by the `push` worker's recovery, exactly once. A retry
// under the same Idempotency-Key after a lost answer replays the first send, never a second.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../api/app';
import { createSend } from '../../db/repositories/push-sends';
import { startUnstartedSends } from '../../workers/push-send-recovery';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, startPushApi } from '../support/push';
import { insertDevices, pushTenant, sendResult, statusCounts, type PushTenant } from '../support/push-send';

let api: TestApi;
let tenant: PushTenant;
beforeAll(async () => {
  api = await startPushApi();
  tenant = await pushTenant(api);
});
afterAll(() => api?.stop());

const sendsOf = async (appId: string) => (await api.deps.db.query(`SELECT count(*)::int AS n FROM push_sends WHERE app_id = $1`, [appId])).rows[0].n;

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

test('Temporal unreachable: 503 SERVICE_UNAVAILABLE with Retry-After, no send and no notification rows', async () => {
  const [device] = await insertDevices(api.deps.db, tenant.appId, 1);
  const before = await sendsOf(tenant.appId);
  const res = await sendWithDeadTemporal({ appId: tenant.appId, deviceIds: [device.id], title: 'down', body: 'x' });
  assertPushError({ status: res.status, body: await res.json() }, 503, 'SERVICE_UNAVAILABLE');
  assert.ok(res.headers.get('retry-after'));
  assert.equal(await sendsOf(tenant.appId), before);
  const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM push_notifications WHERE device_id = $1`, [device.id]);
  assert.equal(rows[0].n, 0);
});

test('a committed send without its workflow is started by the recovery once, and pushed', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 3);
  const { sendId } = await api.deps.db.transaction((m) => createSend(m, { appId: tenant.appId, title: 'orphan', body: 'x', deepLink: null, customData: {} }, devices));
  // as if the API had died two minutes ago between its commit and the start
  await api.deps.db.query(`UPDATE push_sends SET created_at = now() - interval '2 minutes' WHERE id = $1`, [sendId]);
  const deps = { db: api.deps.db, client: api.deps.temporal };
  // (the suite's push worker runs the same recovery every 30 s: whichever starts it, once)
  await startUnstartedSends(deps);
  assert.deepEqual(await sendResult(api.deps.temporal, sendId), { sent: 3, failed: 0, pages: 1 });
  assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: 3 });
  // done: the next round does not start it again
  const { rows } = await api.deps.db.query(`SELECT status FROM push_sends WHERE id = $1`, [sendId]);
  assert.equal(rows[0].status, 'done');
  await startUnstartedSends(deps);
  const runs = [];
  for await (const w of api.deps.temporal.workflow.list({ query: `WorkflowId = 'push-send/${sendId}'` })) runs.push(w);
  assert.equal(runs.length, 1);
});

const sendWithKey = (key: string, deviceIds: string[], title: string) =>
  api.request('POST', '/api/v1/notifications/send', {
    headers: { ...apiKeyHeader(tenant.apiKey), 'idempotency-key': key },
    body: { appId: tenant.appId, deviceIds, title, body: 'x' },
  });
const sendsTitled = async (title: string) => (await api.deps.db.query(`SELECT id FROM push_sends WHERE title = $1`, [title])).rows.map((r) => r.id);

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

test('the first attempt\'s send was removed (Temporal unreachable, 503): a retry with the same key sends once', async () => {
  const devices = await insertDevices(api.deps.db, tenant.appId, 2);
  const key = `send-503-${Date.now()}`;
  const res = await sendWithDeadTemporal({ appId: tenant.appId, deviceIds: devices.map((d) => d.id), title: key, body: 'x' }, { 'idempotency-key': key });
  assert.equal(res.status, 503);
  assert.deepEqual(await sendsTitled(key), []);
  const retry = await sendWithKey(key, devices.map((d) => d.id), key);
  assert.equal(retry.status, 202, JSON.stringify(retry.body));
  assert.equal(retry.body.queued, 2);
  const [sendId] = await sendsTitled(key);
  assert.deepEqual(await sendResult(api.deps.temporal, sendId), { sent: 2, failed: 0, pages: 1 });
});

test('an unknown app is a 404 whatever the devices', async () => {
  const res = await api.request('POST', '/api/v1/notifications/send', {
    headers: apiKeyHeader(tenant.apiKey),
    body: { appId: '00000000-0000-4000-8000-000000000000', deviceIds: ['x'], title: 't', body: 'b' },
  });
  assertPushError(res, 404, 'RESOURCE_NOT_FOUND');
});
