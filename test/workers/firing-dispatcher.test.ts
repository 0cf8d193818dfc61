// The firing dispatcher (workers/firing-dispatcher.ts) over push_trigger_firings: two
// dispatchers never claim the same firing and each batch's workflow is started once;
// a batch whose start failed (Temporal unreachable) stays claimed and undispatched, and
// is started once Temporal answers. The batches' workflows run on the suite's `push`
// worker and push to the suite's sink.
// The firings are made claimed (as by a dispatcher that died before its start), so the
// suite's own dispatcher, which takes a claim up again only after 30 s, leaves them to
// the dispatchers of this test.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { createFiringDispatcher } from '../../workers/firing-dispatcher';
import type { Dispatcher } from '../../workers/outbox-dispatcher';
import { triggerBatchWorkflowId } from '../../workflows/trigger-batch/contract';
import { eventually } from '../support/eventually';
import { byToken, sinkRecords } from '../support/push-sink';
import { createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';

const config = loadConfig();
const logger = createLogger({ level: 'silent' });
let db: Db;
let connection: Connection;
let client: Client;
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 10);
  connection = await Connection.connect({ address: config.temporalAddress });
  client = new Client({ connection, namespace: config.temporalNamespace });
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await connection?.close();
  await db?.close();
});

/** `base`, with its workflow starts counted by workflow id. */
function countingClient(base: Client, counts: Map<string, number>): Client {
  const workflow = new Proxy(base.workflow, {
    get(target, prop, receiver) {
      if (prop !== 'start') return Reflect.get(target, prop, receiver);
      return (type: string, options: { workflowId: string }) => {
        counts.set(options.workflowId, (counts.get(options.workflowId) ?? 0) + 1);
        return target.start(type, options as never);
      };
    },
  });
  return new Proxy(base, { get: (target, prop) => (prop === 'workflow' ? workflow : Reflect.get(target, prop, target)) });
}

async function dispatch(opts: { client: Client; reclaimAfterMs: number; batchSize?: number }): Promise<Dispatcher> {
  const d = createFiringDispatcher({ db, logger, pollIntervalMs: 200, ...opts });
  dispatchers.push(d);
  await d.start();
  return d;
}

/** `n` delay-0 firings for one device, each claimed into a batch of its own and never dispatched. */
async function claimedFirings(n: number) {
  const { appId, device } = await triggerApp(db, config);
  await createTrigger(db, appId, { delayMinutes: 0 });
  const batchIds: string[] = [];
  for (let i = 0; i < n; i++) batchIds.push((await fireAt(db, new Date(), { appId, deviceId: device.id, properties: { level: i } }, { dispatched: false })).batchId);
  return { appId, device, batchIds };
}

const undispatched = async (batchIds: string[]) =>
  (await db.query(`SELECT count(*)::int AS n FROM push_trigger_firings WHERE batch_id = ANY($1::uuid[]) AND dispatched_at IS NULL`, [batchIds])).rows[0].n;
const statuses = async (batchIds: string[]) =>
  (await db.query(`SELECT status FROM push_trigger_firings WHERE batch_id = ANY($1::uuid[])`, [batchIds])).rows.map((r: { status: string }) => r.status);

test('two dispatchers: each batch started once, every firing dispatched and pushed once', async () => {
  const { device, batchIds } = await claimedFirings(40);
  // claimed 15 s ago: these dispatchers take the claims up again (after 10 s), the suite's not yet (30 s)
  await db.query(`UPDATE push_trigger_firings SET claimed_at = now() - interval '15 seconds' WHERE batch_id = ANY($1::uuid[])`, [batchIds]);
  const counts = new Map<string, number>();
  await Promise.all([0, 1].map(() => dispatch({ client: countingClient(client, counts), reclaimAfterMs: 10_000, batchSize: 7 })));
  await eventually(async () => (await undispatched(batchIds)) === 0, { timeoutMs: 30_000, what: 'every batch dispatched' });
  for (const id of batchIds) assert.equal(counts.get(triggerBatchWorkflowId(id)), 1, `batch ${id} started ${counts.get(triggerBatchWorkflowId(id)) ?? 0} times`);
  await eventually(async () => (await statuses(batchIds)).every((s) => s === 'sent'), { timeoutMs: 60_000, what: 'every firing sent' });
  assert.equal(byToken(sinkRecords(undefined), [device.token]).get(device.token)!.length, 40);
}, 120_000);

test('claimed while Temporal is unreachable: the batch stays undispatched, and is started once Temporal answers', async () => {
  const { device, batchIds } = await claimedFirings(1);
  const wf = triggerBatchWorkflowId(batchIds[0]);
  const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '500ms' }) });
  const attempts = new Map<string, number>();
  const down = await dispatch({ client: countingClient(deadTemporal, attempts), reclaimAfterMs: 500 });
  // claimed, failed, claimed again after the reclaim time, failed again: still undispatched
  await eventually(async () => (attempts.get(wf) ?? 0) >= 2, { timeoutMs: 20_000 });
  assert.equal(await undispatched(batchIds), 1, 'the firing went without its batch workflow');
  await down.stop();
  // Temporal is back (a dispatcher that reaches it): the claim is taken up again
  const counts = new Map<string, number>();
  await dispatch({ client: countingClient(client, counts), reclaimAfterMs: 500 });
  await eventually(async () => (await undispatched(batchIds)) === 0);
  assert.equal(counts.get(wf), 1);
  await eventually(async () => (await statuses(batchIds))[0] === 'sent', { timeoutMs: 30_000 });
  assert.equal(byToken(sinkRecords(undefined), [device.token]).get(device.token)!.length, 1);
}, 90_000);
