// The local push sink at the wire level, with a bare HTTP/2 client: what it refuses and
// how (as Google and Apple answer), and the raw-capacity measurement the push bench uses.
import assert from 'node:assert/strict';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFcmServiceAccount } from '../../lib/push/credentials';
import { demoCredentials, generateDemoCredentials } from '../../lib/push/demo-credentials';
import { signJwt } from '../../lib/push/jwt';
import { sinkRecords, startTestPushSink } from '../support/push-sink';
import { http2Post, measureSinkCapacity, startSinkProcess } from '../../scripts/push-sink/capacity';

const creds = generateDemoCredentials({ projectId: 'sink-test-project', keyId: 'SINKTEST01' });
const sa = parseFcmServiceAccount(creds.serviceAccountJson);
let sink: Awaited<ReturnType<typeof startTestPushSink>>;
let session: ClientHttp2Session;

async function post(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const { status, text } = await http2Post(session, path, headers, body);
  return { status, json: text ? JSON.parse(text) : {} };
}

const assertion = (claims: Record<string, unknown> = {}, key = sa.privateKey) => {
  const now = Math.floor(Date.now() / 1000);
  return signJwt('RS256', {}, { iss: sa.clientEmail, scope: 'x', aud: `${sink.url}/token`, iat: now, exp: now + 3600, ...claims }, createPrivateKey(key));
};
const exchange = (a: string, grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer') =>
  post('/token', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ grant_type: grant, assertion: a }).toString());

beforeAll(async () => {
  sink = await startTestPushSink({ trust: [creds] });
  session = connect(sink.url);
});
afterAll(async () => {
  session.close();
  await sink.cleanup();
});

test('OAuth token exchange: a signed assertion gets an access token; a forged, expired or foreign one gets invalid_grant', async () => {
  const ok = await exchange(assertion());
  assert.equal(ok.status, 200);
  assert.match(String(ok.json.access_token), /^ya29\./);
  assert.equal(ok.json.expires_in, 3600);
  const other = JSON.parse(generateDemoCredentials().serviceAccountJson).private_key as string;
  for (const bad of [
    assertion({}, other), // the right client_email, signed by another key
    assertion({ iss: 'nobody@example.iam.gserviceaccount.com' }),
    assertion({ exp: Math.floor(Date.now() / 1000) - 10, iat: Math.floor(Date.now() / 1000) - 3610 }),
    assertion({ aud: 'https://example.com/elsewhere' }),
    'not.a.jwt',
  ]) {
    const r = await exchange(bad);
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'invalid_grant');
  }
  assert.equal((await exchange(assertion(), 'client_credentials')).json.error, 'unsupported_grant_type');
});

test('messages:send needs an access token the sink issued, for the same project', async () => {
  const body = JSON.stringify({ message: { token: 'tok-1', notification: { title: 't', body: 'b' } } });
  const none = await post(`/v1/projects/${sa.projectId}/messages:send`, { 'content-type': 'application/json' }, body);
  assert.equal(none.status, 401);
  assert.equal((none.json.error as { status: string }).status, 'UNAUTHENTICATED');
  const forged = await post(`/v1/projects/${sa.projectId}/messages:send`, { authorization: 'Bearer ya29.made-up' }, body);
  assert.equal(forged.status, 401);
  const token = String((await exchange(assertion())).json.access_token);
  const wrongProject = await post('/v1/projects/another-project/messages:send', { authorization: `Bearer ${token}` }, body);
  assert.equal(wrongProject.status, 403);
  const noToken = await post(`/v1/projects/${sa.projectId}/messages:send`, { authorization: `Bearer ${token}` }, '{"message":{}}');
  assert.equal(noToken.status, 400);
  const dead = await post(`/v1/projects/${sa.projectId}/messages:send`, { authorization: `Bearer ${token}` }, JSON.stringify({ message: { token: 'unregistered-x' } }));
  assert.equal(dead.status, 404);
  assert.deepEqual((dead.json.error as { details: unknown[] }).details, [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }]);
  const ok = await post(`/v1/projects/${sa.projectId}/messages:send`, { authorization: `Bearer ${token}` }, body);
  assert.equal(ok.status, 200);
  assert.match(String(ok.json.name), new RegExp(`^projects/${sa.projectId}/messages/`));
});

test('APNs: provider token required and checked; apns-id must be a UUID; dead tokens answered as Apple does', async () => {
  const jwt = (key = creds.apns.p8KeyContent, claims: Record<string, unknown> = {}) =>
    signJwt('ES256', { kid: creds.apns.keyId }, { iss: creds.apns.teamId, iat: Math.floor(Date.now() / 1000), ...claims }, createPrivateKey(key));
  const payload = JSON.stringify({ aps: { alert: { title: 't', body: 'b' } } });
  const headers = (auth?: string, extra: Record<string, string> = {}) => ({
    ...(auth ? { authorization: `bearer ${auth}` } : {}),
    'apns-topic': creds.apns.bundleId,
    ...extra,
  });
  assert.deepEqual(await post('/3/device/tok-1', headers(), payload), { status: 403, json: { reason: 'MissingProviderToken' } });
  const stranger = generateDemoCredentials().apns.p8KeyContent;
  assert.equal((await post('/3/device/tok-1', headers(jwt(stranger)), payload)).json.reason, 'InvalidProviderToken');
  assert.equal((await post('/3/device/tok-1', headers(jwt(undefined, { iss: 'SOMEONEELS' })), payload)).json.reason, 'InvalidProviderToken');
  assert.equal((await post('/3/device/tok-1', headers(jwt(undefined, { iat: Math.floor(Date.now() / 1000) - 3700 })), payload)).json.reason, 'ExpiredProviderToken');
  assert.equal((await post('/3/device/tok-1', headers(jwt(), { 'apns-id': 'not-a-uuid' }), payload)).json.reason, 'BadMessageId');
  assert.equal((await post('/3/device/tok-1', headers(jwt()), '{}')).json.reason, 'PayloadEmpty');
  const gone = await post('/3/device/unregistered-1', headers(jwt()), payload);
  assert.equal(gone.status, 410);
  assert.equal(gone.json.reason, 'Unregistered');
  assert.equal((await post('/3/device/invalid-1', headers(jwt()), payload)).json.reason, 'BadDeviceToken');
  const token = `tok-${randomUUID()}`;
  assert.equal((await post(`/3/device/${token}`, headers(jwt()), payload)).status, 200);
  assert.equal(sinkRecords(sink.dir, 'apns').filter((r) => r.token === token).length, 1);
});

test('raw capacity: a bare HTTP/2 client counts the messages the sink accepted (APNs and FCM)', async () => {
  for (const service of ['apns', 'fcm'] as const) {
    const before = sink.counts[service];
    const r = await measureSinkCapacity({ url: sink.url, credentials: creds, service, durationMs: 300, maxMessages: 200, concurrency: 8 });
    assert.equal(r.failures, 0);
    assert.ok(r.messages > 0 && r.messages <= 200);
    assert.equal(sink.counts[service] - before, r.messages);
    assert.ok(r.perSecond > 0);
  }
});

test('the sink as its own process (npm start / npm test) trusts the checkout\'s demo credentials', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'push-sink-proc-'));
  const saved = process.env.PUSH_DEMO_CREDENTIALS_FILE;
  process.env.PUSH_DEMO_CREDENTIALS_FILE = join(dir, 'demo.json');
  try {
    const proc = await startSinkProcess(join(dir, 'out'));
    try {
      const r = await measureSinkCapacity({ url: proc.url, credentials: demoCredentials(), service: 'fcm', durationMs: 200, maxMessages: 20, concurrency: 2 });
      assert.equal(r.failures, 0);
      assert.equal(sinkRecords(join(dir, 'out'), 'fcm').length, r.messages);
    } finally {
      await proc.stop();
    }
  } finally {
    if (saved === undefined) delete process.env.PUSH_DEMO_CREDENTIALS_FILE;
    else process.env.PUSH_DEMO_CREDENTIALS_FILE = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});
