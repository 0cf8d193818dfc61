// The trigger firing workflow on the time-skipping server, with the real activities (the
// firing's own and the send workflow's page push) against the suite's push sink: a
// 30-minute delay sends at its boundary and not a second before; a trigger disabled or
// deleted during its delay sends nothing (enabled again in time, it sends); delay 0 sends
// at once (no timer); a firing of a deleted app, or to a device gone inactive, ends
// without sending; a repeated step reuses the firing's one send.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { createTriggerFiringActivities } from '../../activities/push/trigger-firing';
import { connectDb, type Db } from '../../db/db';
import { deletePushApp } from '../../db/repositories/push-apps';
import { startTriggerFiring } from '../../domain/push/send-trigger-firing';
import { deleteEventTrigger, updateEventTrigger } from '../../domain/push/update-event-trigger';
import { loadConfig } from '../../lib/config';
import type { OutboxStart } from '../../db/repositories/workflow-starts';
import type { TriggerFiringInput, TriggerFiringOutcome } from '../../workflows/trigger-firing/contract';
import { createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';
import { byToken, sinkRecords } from '../support/push-sink';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';

const TASK_QUEUE = 'trigger-firing-test';
const MIN = 60_000;
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
    activities: { ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }), ...createTriggerFiringActivities({ db }) },
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

/** A trigger of `delayMinutes`, fired at the test server's now, its one firing's workflow started. */
async function fired(delayMinutes: number) {
  const { appId, device } = await triggerApp(db, config);
  const trigger = await createTrigger(db, appId, { delayMinutes });
  const firedAt = await env.currentTimeMs();
  const [start] = await fireAt(db, new Date(firedAt), { appId, deviceId: device.id, properties: { level: 30, name: 'Ada' } });
  const handle = await env.client.workflow.start('triggerFiringWorkflow', { taskQueue: TASK_QUEUE, workflowId: start.workflowId, args: start.args });
  const firingId = (start.args[0] as TriggerFiringInput).firingId;
  return { appId, device, trigger, firedAt, handle, firingId, start: start as OutboxStart };
}

const pushesTo = (token: string) => byToken(sinkRecords(undefined), [token]).get(token)!;
const firingRow = async (id: string) => (await db.query(`SELECT status, send_id FROM push_trigger_firings WHERE id = $1`, [id])).rows[0];
const timers = async (handle: { fetchHistory(): Promise<{ events?: Array<{ timerStartedEventAttributes?: unknown }> | null }> }) =>
  ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerStartedEventAttributes).length;

test('a 30-minute delay: nothing a second before the boundary, the push at it', async () => {
  const f = await fired(30);
  await env.sleep(30 * MIN - 1000);
  assert.equal((await firingRow(f.firingId)).status, 'pending');
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.equal(await f.handle.result(), 'sent' satisfies TriggerFiringOutcome);
  assert.ok((await env.currentTimeMs()) - f.firedAt >= 30 * MIN, 'sent no earlier than 30 minutes after the fire');
  const pushes = pushesTo(f.device.token);
  assert.equal(pushes.length, 1);
  assert.equal(pushes[0].title, 'Level 30');
  assert.equal(pushes[0].body, 'Well played, Ada');
  const row = await firingRow(f.firingId);
  assert.equal(row.status, 'sent');
  assert.ok(row.send_id);
  assert.equal(await timers(f.handle), 1);
}, 60_000);

test('a trigger disabled during its delay sends nothing', async () => {
  const f = await fired(30);
  await env.sleep(10 * MIN);
  await updateEventTrigger(db, f.trigger.id, { enabled: false });
  assert.equal(await f.handle.result(), 'skipped_disabled' satisfies TriggerFiringOutcome);
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.deepEqual(await firingRow(f.firingId), { status: 'skipped_disabled', send_id: null });
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM push_sends WHERE app_id = $1`, [f.appId]);
  assert.equal(rows[0].n, 0, 'no send was created');
}, 60_000);

test('a trigger deleted during its delay sends nothing', async () => {
  const f = await fired(5);
  await deleteEventTrigger(db, f.trigger.id);
  assert.equal(await f.handle.result(), 'skipped_deleted' satisfies TriggerFiringOutcome);
  assert.equal(pushesTo(f.device.token).length, 0);
}, 60_000);

test('delay 0: sent at once, without a timer', async () => {
  const f = await fired(0);
  assert.equal(await f.handle.result(), 'sent' satisfies TriggerFiringOutcome);
  assert.equal(await timers(f.handle), 0);
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);

test('the app deleted during the delay: the firing went with it, the workflow ends without sending', async () => {
  const f = await fired(60);
  await deletePushApp(db, f.appId);
  assert.equal(await f.handle.result(), 'gone' satisfies TriggerFiringOutcome);
  assert.equal(pushesTo(f.device.token).length, 0);
}, 60_000);

test('disabled, then enabled again before it is due: it sends (the check is made when due)', async () => {
  const f = await fired(20);
  await env.sleep(5 * MIN);
  await updateEventTrigger(db, f.trigger.id, { enabled: false });
  await env.sleep(5 * MIN);
  await updateEventTrigger(db, f.trigger.id, { enabled: true });
  assert.equal(await f.handle.result(), 'sent' satisfies TriggerFiringOutcome);
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);

test('a device gone inactive (dead token) during the delay: skipped_device, no send', async () => {
  const f = await fired(10);
  await db.query(`UPDATE push_devices SET is_active = false WHERE id = $1`, [f.device.id]);
  assert.equal(await f.handle.result(), 'skipped_device' satisfies TriggerFiringOutcome);
  assert.equal(pushesTo(f.device.token).length, 0);
  assert.deepEqual(await firingRow(f.firingId), { status: 'skipped_device', send_id: null });
}, 60_000);

test('a repeated step changes nothing: the firing keeps its one send', async () => {
  const f = await fired(0);
  assert.equal(await f.handle.result(), 'sent' satisfies TriggerFiringOutcome);
  const { sendId } = await startTriggerFiring(db, f.firingId);
  assert.equal(sendId, (await firingRow(f.firingId)).send_id, 'the same send, not a second one');
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM push_sends WHERE app_id = $1`, [f.appId]);
  assert.equal(rows[0].n, 1);
  assert.equal(pushesTo(f.device.token).length, 1);
}, 60_000);
