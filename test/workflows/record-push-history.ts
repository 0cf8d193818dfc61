// Records the push send history that replay.test.ts replays (histories/push-send.json):
// a send of 502 devices (two pages: 500, then 2, one of them a dead token) through the
// real page activity and transports to a push sink of its own, on the time-skipping
// server. Run after a deliberate change of workflows/push-send that the recorded history
// cannot replay (read docs/workflows.md first; keep the old file under another name while
// runs of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-push-history.ts
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { connectDb } from '../../db/db';
import { insertSend } from '../../db/repositories/push-sends';
import { loadConfig } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { pushSendWorkflowId } from '../../workflows/push-send/contract';
import { insertDevices } from '../support/push-send';
import { startTestPushSink } from '../support/push-sink';
import { timeSkippingEnv } from '../support/temporal';

async function main() {
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl, 2);
  const sink = await startTestPushSink({ host: '127.0.0.1', trust: [demoCredentials()] });
  process.env.FCM_ENDPOINT = process.env.APNS_ENDPOINT = sink.url;
  const env = await timeSkippingEnv();
  const companyId = randomUUID();
  const appId = randomUUID();
  await db.query(`INSERT INTO push_companies (id, name) VALUES ($1, 'Recorder')`, [companyId]);
  await db.query(`INSERT INTO push_apps (id, company_id, name, bundle_id, platform, fcm_credentials, apns_credentials) VALUES ($1, $2, 'Recorder', $3, 'Android', $4, $5)`, [
    appId,
    companyId,
    demoCredentials().apns.bundleId,
    sealCredentials(config, appId, 'fcm', { serviceAccountJson: demoCredentials().serviceAccountJson }),
    sealCredentials(config, appId, 'apns', demoCredentials().apns),
  ]);
  const live = await insertDevices(db, appId, 501, { platform: (n) => (n % 2 ? 'iOS' : 'Android') });
  const dead = await insertDevices(db, appId, 1, { prefix: `unregistered-${Date.now()}` });
  const { sendId } = await db.transaction((m) => insertSend(m, { appId, title: 'Recorded', body: 'history', deepLink: 'game://x', customData: { a: 1 } }, [...live, ...dead]));
  const taskQueue = 'record-push-history';
  const transports = createTransportCache();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/queues/push'),
    activities: createPushSendActivities({ db, openTransport: transportOpener(config), transports }),
  });
  const history = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start('pushSendWorkflow', { taskQueue, workflowId: pushSendWorkflowId(sendId), args: [{ sendId }] });
    console.log('result', await handle.result());
    return handle.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'push-send.json'), historyToJSON(history));
  await transports.close();
  await env.teardown();
  await sink.cleanup();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
