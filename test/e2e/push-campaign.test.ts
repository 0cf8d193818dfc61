// A campaign end to end over HTTP: 10,000 devices (half Android, half iOS) of an app with
// the sink's demo credentials, sent by the suite's `push` worker through the real FCM and
// APNs transports: every token receives exactly one push carrying the campaign's id, the
// campaign ends Completed, and its analytics count what was recorded.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { startPushApi } from '../support/push';
import { eventually } from '../support/eventually';
import { pushTenant, type PushTenant } from '../support/push-send';
import { insertManyDevices } from '../support/push-device-factories';
import { campaignPushes, campaignResult, createCampaign } from '../support/push-campaigns';
import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { createCampaignActivities } from '../../activities/push/campaign';
import { cancel, schedule } from '../../api/push/campaigns/gateway';
import { createCampaign as createDraft, scheduleDraft } from '../../domain/push/campaign';
import { findCampaign } from '../../db/repositories/push-campaigns';
import { countPendingWorkflowStarts } from '../../db/repositories/workflow-starts';
import { createWorkflowStartDispatcher } from '../../workers/workflow-start-dispatcher';
import { campaignWorkflowId, campaignWorkflowStart, type CampaignActivities, type CampaignInput } from '../../workflows/campaign/contract';
import { PAGES_PER_RUN, PUSH_PAGE_SIZE } from '../../workflows/campaign/campaign.logic';
import { workflowBundle } from '../support/temporal';

let api: TestApi;
let tenant: PushTenant;

beforeAll(async () => {
  api = await startPushApi();
  tenant = await pushTenant(api);
});
afterAll(async () => {
  await api?.stop();
});

describe('push campaign', () => {
  it('10,000 devices: each token once, Completed, analytics match the recorded facts', async () => {
    const devices = await insertManyDevices(api.deps.db, tenant.appId, 10_000, (n) => ({
      platform: n % 2 ? 'Android' : 'iOS',
      deviceMetadata: {},
    }));
    const campaign = await createCampaign(api, tenant.token, { appId: tenant.appId, targetType: 'all', deepLink: 'game://maps', imageUrl: 'https://cdn.example/s3.png', customData: { level: 12 } });
    assert.equal(campaign.status, 'Draft');
    assert.equal(campaign.targetType, 'All');

    const sent = await api.request('POST', `/api/v1/campaigns/${campaign.id}/send`, { token: tenant.token });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.deepEqual(sent.body, { campaignId: campaign.id, status: 'Queued', estimatedRecipients: 10_000 });
    const again = await api.request('POST', `/api/v1/campaigns/${campaign.id}/send`, { token: tenant.token });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.code, 'CONFLICT');

    const result = await campaignResult(api.deps.temporal, campaign.id);
    assert.deepEqual(result, { status: 'Completed', sent: 10_000, failed: 0, pages: 20 });

    const got = await api.request('GET', `/api/v1/campaigns/${campaign.id}`, { token: tenant.token });
    assert.equal(got.body.status, 'Completed');
    assert.equal(got.body.recipients, 10_000);

    // every token exactly once, each push under its own notificationId
    const pushes = campaignPushes(campaign.id);
    const perToken = new Map<string, number>();
    for (const p of pushes) perToken.set(p.token, (perToken.get(p.token) ?? 0) + 1);
    assert.equal(perToken.size, 10_000);
    assert.ok([...perToken.values()].every((n) => n === 1), 'a token received more than one push');
    assert.equal(new Set(pushes.map((p) => p.data.notificationId)).size, 10_000);
    assert.ok(pushes.every((p) => p.title === 'Season 3' && p.data.level === '12' && p.data.deepLink === 'game://maps' && p.data.imageUrl === 'https://cdn.example/s3.png'));
    const { rows } = await api.deps.db.query(`SELECT device_id FROM push_notifications WHERE send_id = $1`, [await sendIdOf(campaign.id)]);
    assert.deepEqual(new Set(rows.map((r: { device_id: string }) => r.device_id)), new Set(devices.map((d) => d.id)));

    // two deliveries and one open reported by the devices
    const ids = [...new Set(pushes.map((p) => String(p.data.notificationId)))];
    const key = { authorization: `ApiKey ${tenant.apiKey}` };
    for (const id of ids.slice(0, 2)) assert.equal((await api.request('POST', '/api/v1/notifications/track-delivery', { headers: key, body: { notificationId: id } })).status, 204);
    assert.equal((await api.request('POST', '/api/v1/notifications/track-opened', { headers: key, body: { notificationId: ids[0] } })).status, 204);

    const analytics = await api.request('GET', `/api/v1/campaigns/${campaign.id}/analytics`, { token: tenant.token });
    assert.equal(analytics.status, 200);
    assert.deepEqual(analytics.body, {
      campaignId: campaign.id,
      sent: 10_000,
      delivered: 2,
      opened: 1,
      failed: 0,
      deliveryRate: 2 / 10_000,
      openRate: 1 / 10_000,
      platformBreakdown: {
        android: { sent: 5_000, delivered: analytics.body.platformBreakdown.android.delivered, opened: analytics.body.platformBreakdown.android.opened, failed: 0 },
        ios: { sent: 5_000, delivered: analytics.body.platformBreakdown.ios.delivered, opened: analytics.body.platformBreakdown.ios.opened, failed: 0 },
      },
    });
    const { android, ios } = analytics.body.platformBreakdown;
    assert.equal(android.delivered + ios.delivered, 2);
    assert.equal(android.opened + ios.opened, 1);
  });
});

describe('campaign workflow on the suite\'s Temporal server', () => {
  it(`search attributes: PushAppId, and CampaignStatus as it changes, in every run (${PAGES_PER_RUN + 1} pages: one continue-as-new)`, async () => {
    const total = (PAGES_PER_RUN + 1) * PUSH_PAGE_SIZE;
    const statusSeen: string[] = [];
    const taskQueue = `campaign-sa-${randomUUID()}`;
    // in-memory activities: this is about the workflow and the server, not the pushes
    const activities: CampaignActivities = {
      beginCampaignSend: async () => ({ kind: 'sending', sendId: 'send', total }),
      rescheduleCampaign: async () => true,
      finishCampaign: async ({ status }) => ({ status, sent: total }),
      sendPushPage: async ({ afterPosition, limit }) => {
        const last = Math.min(afterPosition + limit, total - 1);
        return { sent: last - afterPosition, failed: 0, rows: last - afterPosition, lastPosition: last, more: last < total - 1 };
      },
    };
    const config = loadConfig();
    const connection = await NativeConnection.connect({ address: config.temporalAddress });
    const worker = await Worker.create({ connection, namespace: config.temporalNamespace, taskQueue, workflowBundle: await workflowBundle(), activities });
    const appId = randomUUID();
    const campaignId = randomUUID();
    const input: CampaignInput = { campaignId, appId, scheduledAt: null, searchAttributes: true };
    const result = await worker.runUntil(async () => {
      const handle = await api.deps.temporal.workflow.start('campaignWorkflow', {
        taskQueue,
        workflowId: campaignWorkflowId(campaignId),
        args: [input],
        searchAttributes: { PushAppId: [appId], CampaignStatus: ['Queued'] },
      });
      const first = api.deps.temporal.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
      const r = await handle.result();
      statusSeen.push(String((await first.describe()).searchAttributes.CampaignStatus));
      statusSeen.push(String((await handle.describe()).searchAttributes.CampaignStatus));
      assert.deepEqual((await handle.describe()).searchAttributes.PushAppId, [appId]);
      return r;
    });
    await connection.close();
    assert.deepEqual(result, { status: 'Completed', sent: total, failed: 0, pages: PAGES_PER_RUN + 1 });
    assert.deepEqual(statusSeen, ['Sending', 'Completed'], 'the first run ended Sending (continued), the last Completed');
  });
});

describe('changes before the start dispatcher started the workflow', () => {
  it('reschedule then cancel: update-with-start from the pending outbox entry; the dispatcher later finds it started', async () => {
    const taskQueue = `campaign-uws-${randomUUID().slice(0, 8)}`; // no dispatcher polls its entries until the end
    const config = loadConfig();
    const connection = await NativeConnection.connect({ address: config.temporalAddress });
    const db = api.deps.db;
    const worker = await Worker.create({
      connection, namespace: config.temporalNamespace, taskQueue, workflowBundle: await workflowBundle(),
      activities: { ...createCampaignActivities({ db }), sendPushPage: async () => assert.fail('nothing is sent') },
    });
    await worker.runUntil(async () => {
      const draft = await createDraft(db, { appId: tenant.appId, name: 'uws', title: 't', body: 'b', imageUrl: null, deepLink: null, customData: {}, targetType: 'All', segmentId: null });
      const workflowOf = (c: Parameters<ReturnType<typeof campaignWorkflowStart>>[0]) => ({ ...campaignWorkflowStart(api.deps.config.temporalSearchAttributes)(c), taskQueue });
      const scheduled = await scheduleDraft(db, draft.id, new Date(Date.now() + 86_400_000), new Date(), workflowOf);
      assert.equal(await countPendingWorkflowStarts(db, taskQueue), 1);
      const handle = api.deps.temporal.workflow.getHandle(campaignWorkflowId(draft.id));
      await assert.rejects(handle.describe(), 'not started yet');

      const later = new Date(Date.now() + 2 * 86_400_000);
      const moved = await schedule(api.deps, scheduled, later);
      assert.equal(moved.status, 'Scheduled');
      assert.equal(new Date(moved.scheduledAt!).toISOString(), later.toISOString());
      assert.equal((await handle.describe()).status.name, 'RUNNING', 'the update started it');
      assert.equal((await handle.query<{ scheduledAt: string }>('state')).scheduledAt, later.toISOString());

      // the dispatcher's start of the same entry finds it running: one run, entry forgotten
      const dispatcher = createWorkflowStartDispatcher({ db, client: api.deps.temporal, logger: createLogger(), taskQueue });
      await dispatcher.start();
      await eventually(async () => ((await countPendingWorkflowStarts(db, taskQueue)) === 0 ? true : undefined));
      await dispatcher.stop();

      const { campaign, alreadySent } = await cancel(api.deps, (await findCampaign(db, draft.id))!);
      assert.equal(campaign.status, 'Cancelled');
      assert.equal(alreadySent, 0);
      assert.equal(((await handle.result()) as { status: string }).status, 'Cancelled');
      const runs = [];
      for await (const w of api.deps.temporal.workflow.list({ query: `WorkflowId = '${campaignWorkflowId(draft.id)}'` })) runs.push(w.runId);
      assert.equal(runs.length, 1, 'one run');
    });
    await connection.close();
  });
});

async function sendIdOf(campaignId: string): Promise<string> {
  const { rows } = await api.deps.db.query(`SELECT id FROM push_sends WHERE campaign_id = $1`, [campaignId]);
  return rows[0].id;
}
