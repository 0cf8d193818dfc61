// Records the trigger batch history that replay.test.ts replays (histories/
// trigger-batch.json): a batch of two firings (one device, two triggers) with a 5-minute
// delay (its timer), pushed through the real page activity and transports to a push sink
// of its own, on the time-skipping server. Run after a deliberate change of
// workflows/trigger-batch that the recorded history cannot replay (read
// docs/workflows.md first; keep the old file under another name while runs of the old
// code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-trigger-batch-history.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { createTriggerBatchActivities } from '../../activities/push/trigger-batch';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { TRIGGER_BATCH_WORKFLOW_TYPE, triggerBatchWorkflowId } from '../../workflows/trigger-batch/contract';
import { batchInput, createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';
import { startTestPushSink } from '../support/push-sink';
import { timeSkippingEnv } from '../support/temporal';

async function main() {
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl, 2);
  const sink = await startTestPushSink({ host: '127.0.0.1', trust: [demoCredentials()] });
  process.env.FCM_ENDPOINT = process.env.APNS_ENDPOINT = sink.url;
  const env = await timeSkippingEnv();
  const { appId, device } = await triggerApp(db, config);
  await createTrigger(db, appId, { delayMinutes: 5 });
  await createTrigger(db, appId, { delayMinutes: 5, title: 'Again {{properties.level}}' });
  const firedAt = await env.currentTimeMs();
  const { batchId } = await fireAt(db, new Date(firedAt), { appId, deviceId: device.id });
  const input = batchInput(batchId, firedAt, 5);
  const taskQueue = 'record-trigger-batch-history';
  const transports = createTransportCache();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/queues/push'),
    activities: { ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }), ...createTriggerBatchActivities({ db }) },
  });
  const history = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(TRIGGER_BATCH_WORKFLOW_TYPE, { taskQueue, workflowId: triggerBatchWorkflowId(batchId), args: [input] });
    console.log('result', await handle.result());
    return handle.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'trigger-batch.json'), historyToJSON(history));
  await transports.close();
  await env.teardown();
  await sink.cleanup();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
