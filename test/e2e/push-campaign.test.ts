// A campaign end to end over HTTP: 10,000 devices (half Android, half iOS) of an app with
// the sink's demo credentials, sent by the suite's `push` worker through the real FCM and
// APNs transports: every token receives exactly one push carrying the campaign's id, the
// campaign ends Completed, and its analytics count what was recorded.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { startPushApi } from '../support/push';
import { pushTenant, type PushTenant } from '../support/push-send';
import { insertManyDevices } from '../support/push-device-factories';
import { campaignPushes, campaignResult, createCampaign } from '../support/push-campaigns';

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
    const campaign = await createCampaign(api, tenant.token, { appId: tenant.appId, targetType: 'all', deepLink: 'game://maps', customData: { level: 12 } });
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
    assert.ok(pushes.every((p) => p.title === 'Season 3' && p.data.level === '12' && p.data.deepLink === 'game://maps'));
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

async function sendIdOf(campaignId: string): Promise<string> {
  const { rows } = await api.deps.db.query(`SELECT id FROM push_sends WHERE campaign_id = $1`, [campaignId]);
  return rows[0].id;
}
