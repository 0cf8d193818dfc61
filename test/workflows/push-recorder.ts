// What the push history recorders share (record-push-history.ts, record-campaign-
// history.ts, record-trigger-batch-history.ts): the database of DATABASE_URL, a push sink
// of their own the transports push to, the time-skipping server, and a worker of the
// `push` queue's workflows with every push activity, running while `record` runs. Each
// recorder writes what it recorded with writeHistory.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createCampaignActivities } from '../../activities/push/campaign';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { createTriggerBatchActivities } from '../../activities/push/trigger-batch';
import { connectDb, type Db } from '../../db/db';
import { loadConfig, type Config } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { startTestPushSink } from '../support/push-sink';
import { timeSkippingEnv } from '../support/temporal';

export interface PushRecorder {
  config: Config;
  db: Db;
  env: TestWorkflowEnvironment;
  taskQueue: string;
}

type History = Parameters<typeof historyToJSON>[0];

export function writeHistory(name: string, history: History): void {
  writeFileSync(join(__dirname, 'histories', `${name}.json`), historyToJSON(history));
}

/** An app with the demo FCM and APNs credentials, written as the API stores them. */
export async function recorderApp(db: Db, config: Config): Promise<string> {
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
  return appId;
}

/** Runs `record` beside a push worker on `taskQueue`, then tears everything down; exits 1 on a failure. */
export function recordPushHistories(taskQueue: string, record: (r: PushRecorder) => Promise<void>): void {
  (async () => {
    const config = loadConfig();
    const db = await connectDb(config.databaseUrl, 2);
    const sink = await startTestPushSink({ host: '127.0.0.1', trust: [demoCredentials()] });
    process.env.FCM_ENDPOINT = process.env.APNS_ENDPOINT = sink.url;
    const env = await timeSkippingEnv();
    const transports = createTransportCache();
    try {
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowsPath: require.resolve('../../workflows/queues/push'),
        activities: {
          ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }),
          ...createCampaignActivities({ db }),
          ...createTriggerBatchActivities({ db }),
        },
      });
      await worker.runUntil(record({ config, db, env, taskQueue }));
    } finally {
      await transports.close();
      await env.teardown();
      await sink.cleanup();
      await db.close();
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
