// Records the campaign histories that replay.test.ts replays: histories/campaign.json, a
// campaign to 1,001 devices (three pages) scheduled a day ahead and rescheduled once (an
// Update), then sent through the real activities and transports to a push sink of its
// own; and histories/campaign-cancelled.json, a scheduled campaign cancelled while it
// waits. On the time-skipping server. Run after a deliberate change of workflows/campaign
// that the recorded histories cannot replay (read docs/workflows.md first; keep the old
// files under other names while runs of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-campaign-history.ts
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { createCampaignActivities } from '../../activities/push/campaign';
import { transportOpener } from '../../activities/push/open-transport';
import { createPushSendActivities } from '../../activities/push/send-page';
import { createTransportCache } from '../../activities/push/transports';
import { connectDb, type Db } from '../../db/db';
import { insertCampaign, transitionCampaign } from '../../db/repositories/push-campaigns';
import { loadConfig } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { cancelUpdate, campaignWorkflowId, rescheduleUpdate, type CampaignInput } from '../../workflows/campaign/contract';
import { insertDevices } from '../support/push-send';
import { startTestPushSink } from '../support/push-sink';
import { timeSkippingEnv } from '../support/temporal';

const DAY = 86_400_000;

async function scheduledCampaign(db: Db, appId: string, at: Date): Promise<CampaignInput> {
  const c = await insertCampaign(db, { appId, name: 'Recorded', title: 'Recorded', body: 'history', imageUrl: null, deepLink: 'game://x', customData: { a: 1 }, targetType: 'All', segmentId: null });
  await transitionCampaign(db, c.id, ['Draft'], 'Scheduled', { scheduledAt: at });
  return { campaignId: c.id, appId, scheduledAt: at.toISOString(), searchAttributes: false };
}

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
  await insertDevices(db, appId, 1001, { platform: (n) => (n % 2 ? 'iOS' : 'Android') });
  const taskQueue = 'record-campaign-history';
  const transports = createTransportCache();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/queues/push'),
    activities: { ...createPushSendActivities({ db, openTransport: transportOpener(config), transports }), ...createCampaignActivities({ db }) },
  });
  await worker.runUntil(async () => {
    const now = await env.currentTimeMs();
    const sent = await scheduledCampaign(db, appId, new Date(now + DAY));
    const handle = await env.client.workflow.start('campaignWorkflow', { taskQueue, workflowId: campaignWorkflowId(sent.campaignId), args: [sent] });
    await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: new Date(now + 2 * DAY).toISOString() }] });
    console.log('sent', await handle.result());
    writeFileSync(join(__dirname, 'histories', 'campaign.json'), historyToJSON(await handle.fetchHistory()));

    const cancelled = await scheduledCampaign(db, appId, new Date((await env.currentTimeMs()) + DAY));
    const second = await env.client.workflow.start('campaignWorkflow', { taskQueue, workflowId: campaignWorkflowId(cancelled.campaignId), args: [cancelled] });
    await env.sleep(3_600_000);
    console.log('cancel', await second.executeUpdate(cancelUpdate));
    console.log('cancelled', await second.result());
    writeFileSync(join(__dirname, 'histories', 'campaign-cancelled.json'), historyToJSON(await second.fetchHistory()));
  });
  await transports.close();
  await env.teardown();
  await sink.cleanup();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
