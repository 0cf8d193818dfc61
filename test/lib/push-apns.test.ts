// The APNs transport (node:http2, ES256 provider token) against the local sink.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateDemoCredentials } from '../../lib/push/demo-credentials';
import { createApnsTransport, type ApnsTransportOptions } from '../../lib/push/transport';
import { messageWith, sinkForTransportTests, sinkRecords, startTestPushSink } from '../support/push-sink';

const creds = generateDemoCredentials({ keyId: 'APNSTEST01', teamId: 'TEAMTEST01', bundleId: 'com.example.apnstest' });
const env = sinkForTransportTests(creds, (sinkUrl, over: Partial<ApnsTransportOptions> = {}) =>
  createApnsTransport({ ...creds.apns, endpoint: sinkUrl, ...over }),
);
const transport = env.transport;
const message = messageWith({ title: 'Raid starts', body: 'Join your guild in 5 minutes', data: { raid: 'r-9' } });

test('a message arrives with title, body, custom keys, and the notificationId as apns-id and collapse id', async () => {
  const m = message(`tok-${randomUUID()}`, { campaignId: 'cmp-2', deepLink: 'game://raid' });
  assert.deepEqual(await transport().send([m]), [{ ok: true }]);
  const got = sinkRecords(env.sink().dir, 'apns').filter((r) => r.token === m.token);
  assert.equal(got.length, 1);
  assert.equal(got[0].title, 'Raid starts');
  assert.equal(got[0].body, 'Join your guild in 5 minutes');
  assert.deepEqual(got[0].data, { raid: 'r-9', notificationId: m.notificationId, campaignId: 'cmp-2', deepLink: 'game://raid' });
  assert.equal(got[0].apnsId, m.notificationId);
  assert.equal(got[0].collapseId, m.notificationId);
  assert.equal(got[0].topic, 'com.example.apnstest');
});

test('600 messages over one session: outcomes in input order, 410 Unregistered and 400 BadDeviceToken are dead tokens', async () => {
  const run = randomUUID();
  const msgs = Array.from({ length: 600 }, (_, i) =>
    message(i % 100 === 7 ? `unregistered-${run}-${i}` : i % 100 === 8 ? `invalid-${run}-${i}` : `tok-${run}-${i}`),
  );
  const before = env.sink().sessionsOpened();
  const outcomes = await transport().send(msgs);
  assert.equal(outcomes.length, 600);
  assert.equal(env.sink().sessionsOpened() - before, 1);
  msgs.forEach((m, i) => {
    const o = outcomes[i];
    if (m.token.startsWith('tok-')) assert.deepEqual(o, { ok: true }, `#${i}`);
    else {
      assert.ok(!o.ok && o.deadToken && !o.retryable, `#${i}: ${JSON.stringify(o)}`);
      assert.match(o.error, m.token.startsWith('unregistered-') ? /410 Unregistered/ : /400 BadDeviceToken/);
    }
  });
  const received = sinkRecords(env.sink().dir, 'apns').filter((r) => r.token.startsWith(`tok-${run}-`));
  assert.equal(received.length, 588);
  assert.equal(new Set(received.map((r) => r.token)).size, 588);
});

test('a provider token signed by another key is refused (403 InvalidProviderToken): not dead, not retryable, nothing kept', async () => {
  // same key id and team, another private key: only the signature check can tell
  const stranger = generateDemoCredentials({ keyId: 'APNSTEST01', teamId: 'TEAMTEST01', bundleId: 'com.example.apnstest' });
  const m = message(`tok-${randomUUID()}`);
  const [o] = await transport({ p8KeyContent: stranger.apns.p8KeyContent }).send([m]);
  assert.deepEqual(o, { ok: false, deadToken: false, retryable: false, error: 'APNs 403 InvalidProviderToken' });
  const [wrongTeam] = await transport({ teamId: 'OTHERTEAM1' }).send([m]);
  assert.deepEqual(wrongTeam, { ok: false, deadToken: false, retryable: false, error: 'APNs 403 InvalidProviderToken' });
  assert.equal(sinkRecords(env.sink().dir, 'apns').filter((r) => r.token === m.token).length, 0);
});

test('a topic other than the key\'s bundle id is refused', async () => {
  const [o] = await transport({ bundleId: 'com.example.other' }).send([message(`tok-${randomUUID()}`)]);
  assert.deepEqual(o, { ok: false, deadToken: false, retryable: false, error: 'APNs 400 TopicDisallowed' });
});

test('an expired provider token (the sink an hour and more ahead) is retryable', async () => {
  const ahead = await startTestPushSink({ trust: [creds], now: () => Date.now() + 2 * 3600_000 });
  try {
    const [o] = await transport({ endpoint: ahead.url }).send([message(`tok-${randomUUID()}`)]);
    assert.deepEqual(o, { ok: false, deadToken: false, retryable: true, error: 'APNs 403 ExpiredProviderToken' });
  } finally {
    await ahead.cleanup();
  }
});

test('an APNs that cannot be reached gives retryable failures; the transport reconnects when it is back', async () => {
  const gone = await startTestPushSink({ trust: [creds] });
  const url = gone.url;
  await gone.cleanup();
  const t = transport({ endpoint: url });
  for (const o of await t.send([message('tok-a'), message('tok-b')])) assert.ok(!o.ok && o.retryable && !o.deadToken, JSON.stringify(o));
  const back = await startTestPushSink({ trust: [creds], port: Number(new URL(url).port) }).catch(() => undefined);
  if (!back) return; // the port was taken meanwhile: nothing more to check
  try {
    assert.deepEqual(await t.send([message(`tok-${randomUUID()}`)]), [{ ok: true }]);
  } finally {
    await back.cleanup();
  }
});
