// The trigger batch workflow on the time-skipping server, with the real activities (the
// batch's own and the send workflow's page push) against the suite's push sink: a
// 30-minute delay sends at its boundary and not a second before; a trigger disabled
// during the delay sends nothing while another trigger's firing in the same batch sends;
// a deleted trigger, a device gone inactive, a deleted app send nothing; delay 0 sends at
// once (no timer); firings of two apps make one send each; a repeated step reuses the
// batch's sends.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { createTriggerBatchActivities } from '../../activities/push/trigger-batch';
import { connectDb, type Db } from '../../db/db';
import { deletePushApp } from '../../db/repositories/push-apps';
import { startTriggerBatch } from '../../domain/push/send-trigger-batch';
import { deleteEventTrigger, updateEventTrigger } from '../../domain/push/update-event-trigger';
import { loadConfig } from '../../lib/config';
import { TRIGGER_BATCH_WORKFLOW_TYPE, triggerBatchWorkflowId, type TriggerBatchCounts, type TriggerBatchInput } from '../../workflows/trigger-batch/contract';
import { batchInput, createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';
import { byToken, sinkRecords } from '../support/push-sink';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';

const TASK_QUEUE = 'trigger-batch-test';
const MIN = 60_000;
const NONE: TriggerBatchCounts = { sending: 0, sent: 0, failed: 0, skipped_disabled: 0, skipped_deleted: 0, skipped_device: 0 };
const config = loadConfig();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
const transports = createTransportCache();

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  env = await timeSkippingEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: { ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }), ...createTriggerBatchActivities({ db }) },
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await transports.close();
  await env?.teardown();
  await db?.close();
});

const start = (input: TriggerBatchInput) =>
  env.client.workflow.start(TRIGGER_BATCH_WORKFLOW_TYPE, { taskQueue: TASK_QUEUE, workflowId: triggerBatchWorkflowId(input.batchId), args: [input] });

/** A trigger of `delayMinutes`, fired at the test server's now, its batch's workflow started. */
async function fired(delayMinutes: number) {
  const { appId, device } = await triggerApp(db, config);
  const trigger = await createTrigger(db, appId, { delayMinutes });
  const firedAt = await env.currentTimeMs();
  const { batchId } = await fireAt(db, new Date(firedAt), { appId, deviceId: device.id, properties: { level: 30, name: 'Ada' } });
  const handle = await start(batchInput(batchId, firedAt, delayMinutes));
  return { appId, device, trigger, firedAt, handle, batchId };
}

const pushesTo = (token: string) => byToken(sinkRecords(undefined), [token]).get(token)!;
const firingRows = async (batchId: string) =>
  (await db.query(`SELECT id, trigger_id, status, send_id FROM push_trigger_firings WHERE batch_id = $1 ORDER BY created_at, id`, [batchId])).rows;
const sendsOf = async (appId: string) => (await db.query(`SELECT count(*)::int AS n FROM push_sends WHERE app_id = $1`, [appId])).rows[0].n;
const timers = async (handle: { fetchHistory(): Promise<{ events?: Array<{ timerStartedEventAttributes?: unknown }> | null }> }) =>
  ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerStartedEventAttributes).length;

test('a 30-minute delay: nothing a second before the boundary, the push at it', async () => {
  const f = await fired(30);
  await env.sleep(30 * MIN - 1000);
  assert.equal((await firingRows(f.batchId))[0].status, 'pending');
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.deepEqual(await f.handle.result(), { ...NONE, sent: 1 });
  assert.ok((await env.currentTimeMs()) - f.firedAt >= 30 * MIN, 'sent no earlier than 30 minutes after the fire');
  const pushes = pushesTo(f.device.token);
  assert.equal(pushes.length, 1);
  assert.equal(pushes[0].title, 'Level 30');
  assert.equal(pushes[0].body, 'Well played, Ada');
  const [row] = await firingRows(f.batchId);
  assert.equal(row.status, 'sent');
  assert.ok(row.send_id);
  assert.equal(pushes[0].data.notificationId, row.id, "the notification's id is the firing's");
  assert.equal(await timers(f.handle), 1);
}, 60_000);

test("a trigger disabled during the delay sends nothing; another trigger's firing in the same batch sends", async () => {
  const { appId, device } = await triggerApp(db, config);
  const off = await createTrigger(db, appId, { delayMinutes: 30, title: 'Off {{properties.level}}' });
  const on = await createTrigger(db, appId, { delayMinutes: 30, title: 'On {{properties.level}}' });
  const firedAt = await env.currentTimeMs();
  const { batchId, triggersMatched } = await fireAt(db, new Date(firedAt), { appId, deviceId: device.id, properties: { level: 4, name: 'Bo' } });
  assert.equal(triggersMatched, 2);
  const handle = await start(batchInput(batchId, firedAt, 30));
  await env.sleep(10 * MIN);
  await updateEventTrigger(db, off.id, { enabled: false });
  assert.deepEqual(await handle.result(), { ...NONE, sent: 1, skipped_disabled: 1 });
  const pushes = pushesTo(device.token);
  assert.deepEqual(pushes.map((p) => p.title), ['On 4']);
  const rows = await firingRows(batchId);
  assert.deepEqual(rows.find((r) => r.trigger_id === off.id)!.status, 'skipped_disabled');
  assert.equal(rows.find((r) => r.trigger_id === off.id)!.send_id, null);
  assert.equal(rows.find((r) => r.trigger_id === on.id)!.status, 'sent');
  assert.equal(await sendsOf(appId), 1, 'one send for the batch');
}, 60_000);

test('a trigger deleted during its delay sends nothing', async () => {
  const f = await fired(5);
  await deleteEventTrigger(db, f.trigger.id);
  assert.deepEqual(await f.handle.result(), { ...NONE, skipped_deleted: 1 });
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.equal(await sendsOf(f.appId), 0, 'no send was created');
}, 60_000);

test('delay 0: sent at once, without a timer', async () => {
  const f = await fired(0);
  assert.deepEqual(await f.handle.result(), { ...NONE, sent: 1 });
  assert.equal(await timers(f.handle), 0);
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);

test('the app deleted during the delay: its firings went with it, the batch ends without sending', async () => {
  const f = await fired(60);
  await deletePushApp(db, f.appId);
  assert.deepEqual(await f.handle.result(), NONE);
  assert.equal(pushesTo(f.device.token).length, 0);
}, 60_000);

test('disabled, then enabled again before it is due: it sends (the check is made when due)', async () => {
  const f = await fired(20);
  await env.sleep(5 * MIN);
  await updateEventTrigger(db, f.trigger.id, { enabled: false });
  await env.sleep(5 * MIN);
  await updateEventTrigger(db, f.trigger.id, { enabled: true });
  assert.deepEqual(await f.handle.result(), { ...NONE, sent: 1 });
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);

test('a device gone inactive (dead token) during the delay: skipped_device, no send', async () => {
  const f = await fired(10);
  await db.query(`UPDATE push_devices SET is_active = false WHERE id = $1`, [f.device.id]);
  assert.deepEqual(await f.handle.result(), { ...NONE, skipped_device: 1 });
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.deepEqual((await firingRows(f.batchId)).map((r) => [r.status, r.send_id]), [['skipped_device', null]]);
}, 60_000);

test('firings of two apps (Android, iOS) in one batch: one send per app, each push with its own text', async () => {
  const a = await triggerApp(db, config, 'Android');
  const b = await triggerApp(db, config, 'iOS');
  await createTrigger(db, a.appId, { delayMinutes: 0 });
  await createTrigger(db, b.appId, { delayMinutes: 0 });
  const firedAt = new Date(await env.currentTimeMs());
  const { batchId } = await fireAt(db, firedAt, { appId: a.appId, deviceId: a.device.id, properties: { level: 1, name: 'Ada' } });
  await fireAt(db, firedAt, { appId: b.appId, deviceId: b.device.id, properties: { level: 2, name: 'Bo' } }, { batchId });
  const handle = await start(batchInput(batchId, firedAt.getTime(), 0));
  assert.deepEqual(await handle.result(), { ...NONE, sent: 2 });
  assert.deepEqual(pushesTo(a.device.token).map((p) => [p.title, p.body]), [['Level 1', 'Well played, Ada']]);
  assert.deepEqual(pushesTo(b.device.token).map((p) => [p.title, p.body]), [['Level 2', 'Well played, Bo']]);
  assert.equal(await sendsOf(a.appId), 1);
  assert.equal(await sendsOf(b.appId), 1);
}, 60_000);

test("a repeated step changes nothing: the batch keeps its one send", async () => {
  const f = await fired(0);
  assert.deepEqual(await f.handle.result(), { ...NONE, sent: 1 });
  const { sendIds } = await startTriggerBatch(db, f.batchId);
  assert.deepEqual(sendIds, [(await firingRows(f.batchId))[0].send_id], 'the same send, not a second one');
  assert.equal(await sendsOf(f.appId), 1);
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);
