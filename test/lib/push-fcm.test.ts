// The FCM transport (firebase-admin 13, sendEach) against the local sink over the real
// wire protocol: the OAuth JWT-bearer exchange and HTTP v1 messages:send over HTTP/2.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateDemoCredentials } from '../../lib/push/demo-credentials';
import { createFcmTransport } from '../../lib/push/transport';
import { messageWith, sinkForTransportTests, sinkRecords, startTestPushSink } from '../support/push-sink';

const creds = generateDemoCredentials({ projectId: 'fcm-test-project' });
const env = sinkForTransportTests(creds, (sinkUrl, serviceAccountJson: string = creds.serviceAccountJson, endpoint: string = sinkUrl) =>
  createFcmTransport({ serviceAccountJson, endpoint }),
);
const transport = env.transport;
const message = messageWith({ title: 'Daily reward', body: 'Your chest is ready', data: { level: '7' } });

test('a message arrives with title, body, data, notificationId, campaignId, deepLink and the Android tag', async () => {
  const m = message(`tok-${randomUUID()}`, { campaignId: 'cmp-1', deepLink: 'game://chest' });
  assert.deepEqual(await transport().send([m]), [{ ok: true }]);
  const got = sinkRecords(env.sink().dir, 'fcm').filter((r) => r.token === m.token);
  assert.equal(got.length, 1);
  assert.equal(got[0].title, 'Daily reward');
  assert.equal(got[0].body, 'Your chest is ready');
  assert.deepEqual(got[0].data, { level: '7', notificationId: m.notificationId, campaignId: 'cmp-1', deepLink: 'game://chest' });
  assert.equal(got[0].tag, m.notificationId);
  assert.equal(got[0].project, 'fcm-test-project');
  assert.ok(!Number.isNaN(Date.parse(String(got[0].receivedAt))));
});

test('1,201 messages go out in sendEach calls of at most 500, outcomes in input order, dead tokens classified', async () => {
  const run = randomUUID();
  const msgs = Array.from({ length: 1201 }, (_, i) =>
    message(i % 400 === 3 ? `unregistered-${run}-${i}` : i === 999 ? `invalid-${run}-${i}` : `tok-${run}-${i}`),
  );
  const sessionsBefore = env.sink().fcmSendsPerSession.length;
  const t = transport();
  assert.equal(t.maxBatch, 500);
  const outcomes = await t.send(msgs);
  assert.equal(outcomes.length, msgs.length);
  // one HTTP/2 session per sendEach call: 500 + 500 + 201 requests
  assert.deepEqual(env.sink().fcmSendsPerSession.slice(sessionsBefore), [500, 500, 201]);
  msgs.forEach((m, i) => {
    if (m.token.startsWith('tok-')) assert.deepEqual(outcomes[i], { ok: true }, `#${i}`);
    else {
      const o = outcomes[i];
      assert.ok(!o.ok && o.deadToken && !o.retryable, `#${i}: ${JSON.stringify(o)}`);
    }
  });
  const unregistered = outcomes[3];
  assert.ok(!unregistered.ok && /registration-token-not-registered/.test(unregistered.error));
  const invalid = outcomes[999];
  assert.ok(!invalid.ok && /invalid-argument/.test(invalid.error));
  // each accepted token exactly once, each with its own notificationId
  const received = sinkRecords(env.sink().dir, 'fcm').filter((r) => r.token.startsWith(`tok-${run}-`));
  const expected = msgs.filter((m) => m.token.startsWith('tok-'));
  assert.equal(received.length, expected.length);
  const byToken = new Map(received.map((r) => [r.token, r]));
  for (const m of expected) assert.equal(byToken.get(m.token)?.data.notificationId, m.notificationId);
});

test('a service account the sink does not know is refused at the token exchange: nothing delivered, not a dead token', async () => {
  // same project and client_email, another key: only the signature check can tell
  const stranger = generateDemoCredentials({ projectId: 'fcm-test-project' });
  const m = message(`tok-${randomUUID()}`);
  const [o] = await transport(stranger.serviceAccountJson).send([m]);
  assert.ok(!o.ok, JSON.stringify(o));
  assert.equal(o.deadToken, false);
  assert.equal(o.retryable, false);
  assert.match(o.error, /invalid_grant/);
  assert.equal(sinkRecords(env.sink().dir, 'fcm').filter((r) => r.token === m.token).length, 0);
});

test('a token for another project is refused (403 SENDER_ID_MISMATCH), not retried, not dead', async () => {
  const other = JSON.parse(creds.serviceAccountJson) as Record<string, unknown>;
  other.project_id = 'someone-elses-project';
  const [o] = await transport(JSON.stringify(other)).send([message(`tok-${randomUUID()}`)]);
  assert.ok(!o.ok && !o.deadToken && !o.retryable, JSON.stringify(o));
  assert.match(o.error, /mismatched-credential/);
});

test('an FCM that cannot be reached gives retryable failures, not dead tokens', async () => {
  const closed = await startTestPushSink({ trust: [creds] });
  const url = closed.url;
  await closed.cleanup();
  const outcomes = await transport(creds.serviceAccountJson, url).send([message('tok-x'), message('tok-y')]);
  for (const o of outcomes) assert.ok(!o.ok && o.retryable && !o.deadToken, JSON.stringify(o));
});

test('an empty batch sends nothing', async () => {
  assert.deepEqual(await transport().send([]), []);
});
