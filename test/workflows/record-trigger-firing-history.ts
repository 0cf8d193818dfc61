// Records the trigger firing history that replay.test.ts replays (histories/
// trigger-firing.json): a firing with a 5-minute delay (its timer), pushed through the
// real page activity and transports to a push sink of its own, on the time-skipping
// server. Run after a deliberate change of workflows/trigger-firing that the recorded
// history cannot replay (read docs/workflows.md first; keep the old file under another
// name while runs of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-trigger-firing-history.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { createTriggerFiringActivities } from '../../activities/push/trigger-firing';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';
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
  const [start] = await fireAt(db, new Date(await env.currentTimeMs()), { appId, deviceId: device.id });
  const taskQueue = 'record-trigger-firing-history';
  const transports = createTransportCache();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/queues/push'),
    activities: { ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }), ...createTriggerFiringActivities({ db }) },
  });
  const history = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start('triggerFiringWorkflow', { taskQueue, workflowId: start.workflowId, args: start.args });
    console.log('result', await handle.result());
    return handle.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'trigger-firing.json'), historyToJSON(history));
  await transports.close();
  await env.teardown();
  await sink.cleanup();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
