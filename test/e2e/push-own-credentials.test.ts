// A new user's walk with keys of their own, over HTTP against the suite's services:
// register, create an app, upload a freshly generated service account (RSA) and APNs .p8
// (EC P-256), register an Android and an iOS device, send. The suite's push sink
// (scripts/test-services.sh) trusts what was uploaded to its stack, so both pushes reach
// it and the notifications are recorded `sent`; replaced keys work for the next send; keys
// nobody uploaded are refused at the sink.
import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:http2';
import { parseFcmServiceAccount } from '../../lib/push/credentials';
import { signJwt } from '../../lib/push/jwt';
import { http2Post } from '../../scripts/push-sink/capacity';
import type { TestApi } from '../support/api';
import { apiKeyHeader, bearer, createApp, createKey, registerAccount, startPushApi } from '../support/push';
import { apnsConfig, serviceAccount } from '../support/push-credentials';
import { sendOf, sendResult, statusCounts } from '../support/push-send';
import { byToken, sinkRecords } from '../support/push-sink';

let api: TestApi;
let token: string;
let appId: string;
let apiKey: string;
const devices: Record<'Android' | 'iOS', { id: string; token: string }> = {} as never;

const suffix = randomBytes(4).toString('hex');
const projectId = `own-project-${suffix}`;
const bundleId = `com.newstudio.game${suffix}`;
const keyId = `OWN${suffix.toUpperCase()}`.slice(0, 10);
const ownServiceAccount = () => JSON.stringify(serviceAccount({ project_id: projectId, client_email: `push@${projectId}.iam.gserviceaccount.com` }));
const ownApnsKey = () => apnsConfig({ keyId, teamId: 'NEWTEAM001', bundleId, useSandbox: true });

async function uploadKeys(fcm: string, apns: Record<string, unknown>) {
  const f = await api.request('PUT', `/api/v1/apps/${appId}/fcm-config`, { headers: bearer(token), body: { serviceAccountJson: fcm } });
  assert.ok(f.status < 300, JSON.stringify(f.body));
  const a = await api.request('PUT', `/api/v1/apps/${appId}/apns-config`, { headers: bearer(token), body: apns });
  assert.ok(a.status < 300, JSON.stringify(a.body));
}

/** Sends to both devices; answers the send's notification ids once its workflow ended. */
async function sendToBoth(title: string): Promise<string> {
  const res = await api.request('POST', '/api/v1/notifications/send', {
    headers: apiKeyHeader(apiKey),
    body: { appId, deviceIds: [devices.Android.id, devices.iOS.id], title, body: 'Your own keys at work' },
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.body.queued, 2);
  const sendId = await sendOf(api.deps.db, res.body.notificationIds[0]);
  await sendResult(api.deps.temporal, sendId);
  return sendId;
}

beforeAll(async () => {
  api = await startPushApi();
  ({ accessToken: token } = await registerAccount(api));
  appId = (await createApp(api, token, { name: 'New Game', bundleId, platform: 'Android' })).id;
  apiKey = (await createKey(api, token, appId)).key;
  for (const platform of ['Android', 'iOS'] as const) {
    const deviceToken = `own-${platform.toLowerCase()}-${randomUUID()}`;
    const res = await api.request('POST', '/api/v1/devices/register', { headers: apiKeyHeader(apiKey), body: { appId, deviceToken, platform, userId: 'player-1' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    devices[platform] = { id: res.body.id, token: deviceToken };
  }
});
afterAll(async () => {
  await api?.stop();
});

describe("a new user's own FCM and APNs keys", () => {
  it('freshly generated keys, uploaded: both pushes reach the sink and the notifications are sent', async () => {
    await uploadKeys(ownServiceAccount(), ownApnsKey());
    const sendId = await sendToBoth('First push');
    assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: 2 });

    const fcm = byToken(sinkRecords(undefined, 'fcm'), [devices.Android.token]).get(devices.Android.token)!;
    assert.deepEqual(fcm.map((r) => [r.title, (r as { project?: string }).project]), [['First push', projectId]]);
    const apns = byToken(sinkRecords(undefined, 'apns'), [devices.iOS.token]).get(devices.iOS.token)!;
    assert.deepEqual(apns.map((r) => [r.title, (r as { topic?: string }).topic]), [['First push', bundleId]]);
  });

  it('replaced keys (new ones uploaded for the same account and key id) work for the next send', async () => {
    await uploadKeys(ownServiceAccount(), ownApnsKey());
    const sendId = await sendToBoth('After rotation');
    assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: 2 });
    const got = byToken(sinkRecords(undefined), [devices.Android.token, devices.iOS.token]);
    for (const platform of ['Android', 'iOS'] as const) {
      assert.deepEqual(got.get(devices[platform].token)!.map((r) => r.title), ['First push', 'After rotation'], platform);
    }
  });

  it('the sink refuses a service account and an APNs key nobody uploaded', async () => {
    const url = process.env.FCM_ENDPOINT!;
    const session = connect(url);
    try {
      const stranger = parseFcmServiceAccount(JSON.stringify(serviceAccount({ project_id: `nobody-${suffix}`, client_email: `push@nobody-${suffix}.iam.gserviceaccount.com` })));
      const now = Math.floor(Date.now() / 1000);
      const assertion = signJwt('RS256', {}, { iss: stranger.clientEmail, scope: 'x', aud: `${url}/token`, iat: now, exp: now + 3600 }, createPrivateKey(stranger.privateKey));
      const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
      const refused = await http2Post(session, '/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
      assert.equal(refused.status, 400);
      assert.equal(JSON.parse(refused.text).error, 'invalid_grant');

      // the uploaded key id and team, signed by a key nobody uploaded
      const impostor = apnsConfig({ keyId, teamId: 'NEWTEAM001', bundleId }) as { p8KeyContent: string };
      const jwt = signJwt('ES256', { kid: keyId }, { iss: 'NEWTEAM001', iat: now }, createPrivateKey(impostor.p8KeyContent));
      const apns = await http2Post(session, `/3/device/tok-${randomUUID()}`, { authorization: `bearer ${jwt}`, 'apns-topic': bundleId }, JSON.stringify({ aps: { alert: 'x' } }));
      assert.equal(apns.status, 403);
      assert.equal(JSON.parse(apns.text).reason, 'InvalidProviderToken');
    } finally {
      session.close();
    }
  });
});
