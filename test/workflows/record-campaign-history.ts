// Records the campaign histories that replay.test.ts replays: histories/campaign.json, a
// campaign to 1,001 devices (three pages) scheduled a day ahead and rescheduled once (an
// Update), then sent through the real activities and transports to a push sink of its
// own; and histories/campaign-cancelled.json, a scheduled campaign cancelled while it
// waits. On the time-skipping server. Run after a deliberate change of workflows/campaign
// that the recorded histories cannot replay (read docs/workflows.md first; keep the old
// files under other names while runs of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-campaign-history.ts
import type { Db } from '../../db/db';
import { insertCampaign, transitionCampaign } from '../../db/repositories/push-campaigns';
import { cancelUpdate, campaignWorkflowId, rescheduleUpdate, type CampaignInput } from '../../workflows/campaign/contract';
import { insertDevices } from '../support/push-send';
import { recordPushHistories, recorderApp, writeHistory } from './push-recorder';

const DAY = 86_400_000;

async function scheduledCampaign(db: Db, appId: string, at: Date): Promise<CampaignInput> {
  const c = await insertCampaign(db, { appId, name: 'Recorded', title: 'Recorded', body: 'history', imageUrl: null, deepLink: 'game://x', customData: { a: 1 }, targetType: 'All', segmentId: null });
  await transitionCampaign(db, c.id, ['Draft'], 'Scheduled', { scheduledAt: at });
  return { campaignId: c.id, appId, scheduledAt: at.toISOString(), searchAttributes: false };
}

recordPushHistories('record-campaign-history', async ({ config, db, env, taskQueue }) => {
  const appId = await recorderApp(db, config);
  await insertDevices(db, appId, 1001, { platform: (n) => (n % 2 ? 'iOS' : 'Android') });
  const now = await env.currentTimeMs();
  const sent = await scheduledCampaign(db, appId, new Date(now + DAY));
  const handle = await env.client.workflow.start('campaignWorkflow', { taskQueue, workflowId: campaignWorkflowId(sent.campaignId), args: [sent] });
  await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: new Date(now + 2 * DAY).toISOString() }] });
  console.log('sent', await handle.result());
  writeHistory('campaign', await handle.fetchHistory());

  const cancelled = await scheduledCampaign(db, appId, new Date((await env.currentTimeMs()) + DAY));
  const second = await env.client.workflow.start('campaignWorkflow', { taskQueue, workflowId: campaignWorkflowId(cancelled.campaignId), args: [cancelled] });
  await env.sleep(3_600_000);
  console.log('cancel', await second.executeUpdate(cancelUpdate));
  console.log('cancelled', await second.result());
  writeHistory('campaign-cancelled', await second.fetchHistory());
});
