// Two push workers share a campaign through the task queue; one of them is killed with
// SIGKILL mid-campaign, the other finishes it: every device gets its push, each repeat
// (only within pages that were in flight in the killed process) carries the device's one
// notificationId, and the campaign ends Completed once.
//
// Isolation as in push-worker-crash.test.ts: the campaign is sent the way
// POST /campaigns/{id}/send does it (domain/push/campaign.ts, the outbox), with the API's
// workflow id but on a task queue of this test, which only a start dispatcher of this test
// and the two worker processes it starts poll, pushing to a sink in this process.
import assert from 'node:assert/strict';
import { createCampaign, sendCampaign } from '../../domain/push/campaign';
import { createLogger } from '../../lib/logger';
import { createWorkflowStartDispatcher } from '../../workers/workflow-start-dispatcher';
import { campaignWorkflowId, campaignWorkflowStart, type CampaignResult } from '../../workflows/campaign/contract';
import { eventually } from '../support/eventually';
import { insertManyDevices } from '../support/push-device-factories';
import { pushTenant } from '../support/push-send';
import { sinkRecords } from '../support/push-sink';
import { startQueueWorker } from '../support/worker-process';
import { usePushCrashStack } from '../support/push-crash-stack';

const DEVICES = 8000; // 16 pages, 8 in flight

const stack = usePushCrashStack('push-campaign-crash');

describe('two push workers, one killed mid-campaign', () => {
  it('the other finishes it: every device pushed, repeats only with the same notificationId, Completed once', async () => {
    const { api, client, sink, sinkDir, workers } = stack;
    const tenant = await pushTenant(api);
    await insertManyDevices(api.deps.db, tenant.appId, DEVICES, (n) => ({ platform: n % 2 ? 'Android' : 'iOS', deviceMetadata: {} }));
    const queue = `push-campaign-crash-${process.pid}-${Date.now().toString(36)}`;
    const env = { FCM_ENDPOINT: sink.url, APNS_ENDPOINT: sink.url };
    const [a, b] = await Promise.all([startQueueWorker('push', queue, { env }), startQueueWorker('push', queue, { env })]);
    workers.push(a, b);
    const campaign = await createCampaign(api.deps.db, {
      appId: tenant.appId, name: 'crash', title: 'Crash', body: 'test', imageUrl: null, deepLink: null, customData: {}, targetType: 'All', segmentId: null,
    });
    await sendCampaign(api.deps.db, campaign.id, (c) => ({ ...campaignWorkflowStart(api.deps.config.temporalSearchAttributes)(c), taskQueue: queue }));
    const dispatcher = createWorkflowStartDispatcher({ db: api.deps.db, client, logger: createLogger(), taskQueue: queue });
    await dispatcher.start();
    const handle = client.workflow.getHandle(campaignWorkflowId(campaign.id));
    const pushed = () => sink.counts.fcm + sink.counts.apns;
    try {
      await eventually(() => pushed() > 1500, { timeoutMs: 60_000, everyMs: 1, what: () => `sink has ${pushed()}:\n${a.output()}\n${b.output()}` });
      a.kill9();
      assert.equal((await a.exited).signal, 'SIGKILL');
      const atKill = pushed();
      assert.ok(atKill < DEVICES, `the campaign was still under way at the kill (${atKill} pushed)`);

      const result = (await handle.result()) as CampaignResult;
      assert.equal(result.status, 'Completed');
      assert.equal(result.sent, DEVICES);
      const { rows } = await api.deps.db.query(
        `SELECT n.id, d.device_token AS token FROM push_notifications n JOIN push_devices d ON d.id = n.device_id WHERE n.send_id = (SELECT send_id FROM push_campaigns WHERE id = $1) AND n.status = 'sent'`,
        [campaign.id],
      );
      assert.equal(rows.length, DEVICES);
      const idOf = new Map(rows.map((r: { id: string; token: string }) => [r.token, r.id]));
      const received = new Map<string, string[]>();
      for (const r of sinkRecords(sinkDir)) {
        if (r.data?.campaignId !== campaign.id) continue;
        received.set(r.token, [...(received.get(r.token) ?? []), String(r.data.notificationId)]);
      }
      assert.equal(received.size, DEVICES, 'a device was skipped');
      let repeated = 0;
      for (const [token, ids] of received) {
        assert.ok(ids.every((id) => id === idOf.get(token)), `${token}: a push under another notificationId`);
        assert.ok(ids.length <= 2, `${token} received ${ids.length} pushes`);
        if (ids.length > 1) repeated++;
      }
      // at most the pages the killed process had in flight (8 × 500)
      assert.ok(repeated <= 8 * 500, `${repeated} repeats`);
      console.log(`campaign, two workers, one kill -9: ${atKill} pushes before the kill, ${repeated} devices pushed twice, 0 skipped`);
    } finally {
      await dispatcher.stop();
      await handle.terminate('campaign crash test cleanup').catch(() => undefined);
    }
  }, 240_000);
});
