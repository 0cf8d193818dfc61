// The sink's trust store (scripts/push-sink/trust.ts) without a database: static and
// per-app entries, replacement, keys shared by several apps, unusable entries, and how a
// miss waits for a reload that began after it.
import assert from 'node:assert/strict';
import { parseFcmServiceAccount } from '../../lib/push/credentials';
import { generateDemoCredentials } from '../../lib/push/demo-credentials';
import { SinkTrust, type TrustedCredentials } from '../../scripts/push-sink/trust';

const email = (c: { serviceAccountJson: string }) => parseFcmServiceAccount(c.serviceAccountJson).clientEmail;

test('static entries stay; per-app entries come, are replaced and go; the same key in two apps is one entry', () => {
  const demo = generateDemoCredentials();
  const own = generateDemoCredentials({ projectId: 'own-project', keyId: 'OWNKEY0001', bundleId: 'com.own.game' });
  const trust = new SinkTrust([demo]);
  assert.equal(trust.fcm(email(demo)).length, 1);
  assert.equal(trust.fcm(email(own)).length, 0);
  assert.equal(trust.apns('OWNKEY0001').length, 0);

  trust.setApp('a', own);
  trust.setApp('b', own);
  assert.equal(trust.fcm(email(own)).length, 1, 'two apps, one key: verified once');
  assert.equal(trust.apns('OWNKEY0001')[0].bundleId, 'com.own.game');

  const rotated = generateDemoCredentials({ projectId: 'own-project', keyId: 'OWNKEY0001', bundleId: 'com.own.game' });
  trust.setApp('a', rotated);
  assert.equal(trust.fcm(email(own)).length, 2, 'app b still holds the old key');
  trust.setApp('b', null);
  assert.equal(trust.fcm(email(own)).length, 1);
  assert.ok(trust.fcm(email(own))[0].publicKey.equals(trust.fcm(email(rotated))[0].publicKey));

  const failed = trust.replaceApps(new Map<string, TrustedCredentials>([['c', { serviceAccountJson: '{"not": "an account"}' }], ['d', own]]));
  assert.deepEqual(failed.map((f) => f.appId), ['c']);
  assert.equal(trust.appCount(), 1, 'a is forgotten, c left out, d kept');
  assert.equal(trust.fcm(email(demo)).length, 1, 'the static list survives every reload');
});

test('a miss without a dynamic source answers false; with one, it waits for a reload that began after it', async () => {
  const trust = new SinkTrust([]);
  assert.equal(await trust.refreshOnMiss(), false);

  const started: Array<() => void> = [];
  trust.setRefresher(() => new Promise<void>((r) => started.push(r)));
  const first = trust.refreshOnMiss(10_000);
  assert.equal(started.length, 1);
  let secondDone = false;
  const second = trust.refreshOnMiss(10_000).then(() => (secondDone = true));
  const third = trust.refreshOnMiss(10_000);
  assert.equal(started.length, 1, 'no second reload while one runs');
  started[0]();
  assert.equal(await first, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(secondDone, false, 'a miss during a reload waits for the next one');
  assert.equal(started.length, 2, 'one follow-up reload, shared by both later misses');
  started[1]();
  await Promise.all([second, third]);

  trust.setRefresher(() => new Promise<void>(() => undefined)); // PostgreSQL hangs
  assert.equal(await trust.refreshOnMiss(50), true, 'bounded: the request is answered anyway');
});
