// The sink's database trust source (scripts/push-sink/db-trust.ts) on an in-process sink
// over the test database: credentials stored for an app are accepted, replaced ones swap
// over, deleted ones go; keys nobody stored, a wrong project, a wrong topic and an expired
// token are refused as before; without a reachable database the static list still serves.
import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { connect, type ClientHttp2Session } from 'node:http2';
import { connectDb, type Db } from '../../db/db';
import { deletePushApp, setPushAppCredentials } from '../../db/repositories/push-apps';
import { loadConfig } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { parseFcmServiceAccount, type ApnsKey } from '../../lib/push/credentials';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { signJwt } from '../../lib/push/jwt';
import { http2Post } from '../../scripts/push-sink/capacity';
import { startDbTrust } from '../../scripts/push-sink/db-trust';
import { eventually } from '../support/eventually';
import { apnsConfig, serviceAccount } from '../support/push-credentials';
import { createPushCompanyAndApp } from '../support/push-device-factories';
import { startTestPushSink } from '../support/push-sink';

const config = loadConfig(process.env);
let db: Db;
let sink: Awaited<ReturnType<typeof startTestPushSink>>;
let session: ClientHttp2Session;

const unique = () => randomBytes(4).toString('hex');
const freshAccount = (projectId = `own-${unique()}`) =>
  JSON.stringify(serviceAccount({ project_id: projectId, client_email: `push@${projectId}.iam.gserviceaccount.com` }));
const freshApnsKey = (o: Partial<ApnsKey> = {}) =>
  apnsConfig({ keyId: `K${unique()}X`.toUpperCase().slice(0, 10), teamId: 'TEAMOWN001', bundleId: `com.own.${unique()}`, ...o }) as unknown as ApnsKey;

async function upload(appId: string, c: { fcm?: string; apns?: ApnsKey }) {
  if (c.fcm) await setPushAppCredentials(db, appId, 'fcm', sealCredentials(config, appId, 'fcm', { serviceAccountJson: c.fcm }));
  if (c.apns) await setPushAppCredentials(db, appId, 'apns', sealCredentials(config, appId, 'apns', c.apns));
}

async function post(path: string, headers: Record<string, string>, body: string) {
  const { status, text } = await http2Post(session, path, headers, body);
  return { status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

/** The OAuth exchange of a service account's own assertion: the access token, or the error. */
async function exchange(serviceAccountJson: string, claims: Record<string, unknown> = {}) {
  const sa = parseFcmServiceAccount(serviceAccountJson);
  const now = Math.floor(Date.now() / 1000);
  const assertion = signJwt('RS256', {}, { iss: sa.clientEmail, scope: 'x', aud: `${sink.url}/token`, iat: now, exp: now + 3600, ...claims }, createPrivateKey(sa.privateKey));
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  return post('/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
}

const fcmSend = (accessToken: string, project: string) =>
  post(`/v1/projects/${project}/messages:send`, { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, JSON.stringify({ message: { token: `tok-${randomUUID()}`, notification: { title: 't', body: 'b' } } }));

function apnsPush(key: ApnsKey, o: { topic?: string; iat?: number } = {}) {
  const iat = o.iat ?? Math.floor(Date.now() / 1000);
  const jwt = signJwt('ES256', { kid: key.keyId }, { iss: key.teamId, iat }, createPrivateKey(key.p8KeyContent));
  return post(`/3/device/tok-${randomUUID()}`, { authorization: `bearer ${jwt}`, 'apns-topic': o.topic ?? key.bundleId }, JSON.stringify({ aps: { alert: { title: 't', body: 'b' } } }));
}

beforeAll(async () => {
  db = await connectDb(process.env.DATABASE_URL!, 2);
  sink = await startTestPushSink({
    trust: [demoCredentials()],
    trustSource: (trust) => startDbTrust(trust, { databaseUrl: process.env.DATABASE_URL!, config, retryMs: 200 }),
  });
  session = connect(sink.url);
});
afterAll(async () => {
  session?.close();
  await sink?.cleanup();
  await db?.close();
});

test('an app stored before the sink started is trusted from its first request (the full load at start)', async () => {
  const { appId } = await createPushCompanyAndApp(db);
  const fcm = freshAccount();
  const apns = freshApnsKey();
  await upload(appId, { fcm, apns });
  const other = await startTestPushSink({ trust: [], trustSource: (t) => startDbTrust(t, { databaseUrl: process.env.DATABASE_URL!, config }) });
  try {
    assert.ok(other.trust.fcm(parseFcmServiceAccount(fcm).clientEmail).length === 1);
    assert.ok(other.trust.apns(apns.keyId).length === 1);
  } finally {
    await other.cleanup();
  }
});

test('uploaded keys are accepted; keys nobody uploaded, a wrong project, a wrong topic and an expired token are refused', async () => {
  const { appId } = await createPushCompanyAndApp(db);
  const fcm = freshAccount();
  const apns = freshApnsKey();
  await upload(appId, { fcm, apns });

  const granted = await exchange(fcm);
  assert.equal(granted.status, 200, JSON.stringify(granted.json));
  const project = parseFcmServiceAccount(fcm).projectId;
  assert.equal((await fcmSend(granted.json.access_token, project)).status, 200);
  const wrongProject = await fcmSend(granted.json.access_token, 'someone-elses-project');
  assert.equal(wrongProject.status, 403);
  assert.equal(wrongProject.json.error.details[0].errorCode, 'SENDER_ID_MISMATCH');
  assert.equal((await apnsPush(apns)).status, 200);

  // nobody uploaded these (the same client_email or key id, signed by another key, too)
  const stranger = await exchange(freshAccount());
  assert.equal(stranger.status, 400);
  assert.equal(stranger.json.error, 'invalid_grant');
  const impostor = JSON.stringify({ ...JSON.parse(freshAccount(project)), client_email: parseFcmServiceAccount(fcm).clientEmail });
  assert.equal((await exchange(impostor)).json.error, 'invalid_grant');
  assert.equal((await apnsPush(freshApnsKey())).json.reason, 'InvalidProviderToken');
  assert.equal((await apnsPush(freshApnsKey({ keyId: apns.keyId, teamId: apns.teamId }))).json.reason, 'InvalidProviderToken');

  assert.equal((await apnsPush(apns, { topic: 'com.someone.else' })).json.reason, 'TopicDisallowed');
  assert.equal((await apnsPush(apns, { iat: Math.floor(Date.now() / 1000) - 7200 })).json.reason, 'ExpiredProviderToken');
  const now = Math.floor(Date.now() / 1000);
  assert.equal((await exchange(fcm, { iat: now - 7200, exp: now - 3600 })).json.error, 'invalid_grant');
});

test('a replaced key is trusted and the old one no longer; a deleted app takes its keys along', async () => {
  const { appId } = await createPushCompanyAndApp(db);
  const projectId = `own-${unique()}`;
  const first = { fcm: freshAccount(projectId), apns: freshApnsKey() };
  await upload(appId, first);
  assert.equal((await exchange(first.fcm)).status, 200);

  // the same account and key id with new keys, as a user rotating them uploads them
  const second = { fcm: freshAccount(projectId), apns: freshApnsKey({ keyId: first.apns.keyId, bundleId: first.apns.bundleId }) };
  await upload(appId, second);
  assert.equal((await exchange(second.fcm)).status, 200, 'the new key at once (a miss reloads)');
  assert.equal((await apnsPush(second.apns)).status, 200);
  await eventually(async () => (await exchange(first.fcm)).status === 400, { what: 'the replaced FCM key refused' });
  assert.equal((await apnsPush(first.apns)).json.reason, 'InvalidProviderToken');

  await deletePushApp(db, appId);
  await eventually(async () => (await exchange(second.fcm)).status === 400, { what: "a deleted app's key refused" });
  assert.equal((await apnsPush(second.apns)).json.reason, 'InvalidProviderToken');
});

test('the notification alone brings a new key (no request has to miss first)', async () => {
  const { appId } = await createPushCompanyAndApp(db);
  const fcm = freshAccount();
  await upload(appId, { fcm });
  await eventually(() => sink.trust.fcm(parseFcmServiceAccount(fcm).clientEmail).length === 1, { what: 'the NOTIFY reload' });
});

test('the demo credentials stay trusted; a database that does not answer leaves the static list serving', async () => {
  const demo = demoCredentials();
  assert.equal((await exchange(demo.serviceAccountJson)).status, 200);
  assert.equal((await apnsPush({ ...demo.apns })).status, 200);

  const lines: string[] = [];
  const offline = await startTestPushSink({
    trust: [demo],
    trustSource: (t) => startDbTrust(t, { databaseUrl: 'postgres://nobody:x@127.0.0.1:1/none', config, retryMs: 100, log: (l) => lines.push(l) }),
  });
  try {
    const s = connect(offline.url);
    try {
      const sa = parseFcmServiceAccount(demo.serviceAccountJson);
      const now = Math.floor(Date.now() / 1000);
      const assertion = signJwt('RS256', {}, { iss: sa.clientEmail, scope: 'x', aud: `${offline.url}/token`, iat: now, exp: now + 3600 }, createPrivateKey(sa.privateKey));
      const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
      assert.equal((await http2Post(s, '/token', { 'content-type': 'application/x-www-form-urlencoded' }, form)).status, 200);
      const stranger = parseFcmServiceAccount(freshAccount());
      const bad = signJwt('RS256', {}, { iss: stranger.clientEmail, scope: 'x', aud: `${offline.url}/token`, iat: now, exp: now + 3600 }, createPrivateKey(stranger.privateKey));
      const refused = await http2Post(s, '/token', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: bad }).toString());
      assert.equal(refused.status, 400);
    } finally {
      s.close();
    }
    assert.ok(lines.some((l) => /does not answer/.test(l)), lines.join('\n'));
  } finally {
    await offline.cleanup();
  }
});
