// How service answers become outcomes, for the answers the sink does not produce
// (the sink-driven tests cover UNREGISTERED, INVALID_ARGUMENT on the token, 410, 400
// BadDeviceToken, refused credentials and unreachable endpoints).
import assert from 'node:assert/strict';
import { classifyApnsResponse, classifyFcmError } from '../../lib/push/transport';

const fcm = (code: string, message: string) => classifyFcmError(Object.assign(new Error(message), { code }));

test('FCM: an INVALID_ARGUMENT about the payload is our bug, not a dead device', () => {
  const o = fcm('messaging/invalid-argument', 'Invalid data payload key: from');
  assert.ok(!o.ok && !o.deadToken && !o.retryable);
  const dead = fcm('messaging/invalid-argument', 'The registration token is not a valid FCM registration token');
  assert.ok(!dead.ok && dead.deadToken);
  assert.ok(!fcm('messaging/invalid-registration-token', 'x').ok);
});

test('FCM: throttling, outages and unknown failures are retryable; credential refusals are not', () => {
  for (const code of ['messaging/server-unavailable', 'messaging/internal-error', 'messaging/message-rate-exceeded', 'app/network-timeout']) {
    const o = fcm(code, 'x');
    assert.ok(!o.ok && o.retryable && !o.deadToken, code);
  }
  const outage = fcm('app/invalid-credential', 'failed … "OAuth token exchange at http://x/token: connect ECONNREFUSED 127.0.0.1:1"');
  assert.ok(!outage.ok && outage.retryable);
  const refused = fcm('app/invalid-credential', 'answered 400: {"error":"invalid_grant"}');
  assert.ok(!refused.ok && !refused.retryable && !refused.deadToken);
  for (const code of ['messaging/mismatched-credential', 'messaging/third-party-auth-error', 'messaging/payload-size-limit-exceeded']) {
    const o = fcm(code, 'x');
    assert.ok(!o.ok && !o.retryable && !o.deadToken, code);
  }
  const plain = classifyFcmError(new Error('socket hang up'));
  assert.ok(!plain.ok && plain.retryable);
});

test('APNs: status and reason', () => {
  assert.deepEqual(classifyApnsResponse(200, ''), { ok: true });
  const cases: Array<[number, string, boolean, boolean]> = [
    [410, 'Unregistered', true, false],
    [410, 'ExpiredToken', true, false],
    [400, 'BadDeviceToken', true, false],
    [400, 'DeviceTokenNotForTopic', false, false], // a wrong bundle id would otherwise kill every device
    [400, 'BadCollapseId', false, false],
    [403, 'InvalidProviderToken', false, false],
    [403, 'ExpiredProviderToken', false, true],
    [413, 'PayloadTooLarge', false, false],
    [429, 'TooManyRequests', false, true],
    [500, 'InternalServerError', false, true],
    [503, 'ServiceUnavailable', false, true],
  ];
  for (const [status, reason, deadToken, retryable] of cases) {
    assert.deepEqual(classifyApnsResponse(status, JSON.stringify({ reason })), { ok: false, deadToken, retryable, error: `APNs ${status} ${reason}` });
  }
  assert.deepEqual(classifyApnsResponse(502, '<html>bad gateway</html>'), { ok: false, deadToken: false, retryable: true, error: 'APNs 502' });
});
