// The page activity's reading of a transport's answers: sent, failed, dead (device
// pruned), and transient failures left queued for the retry until the last attempt.
import assert from 'node:assert/strict';
import { outcomeOf } from '../../activities/push/outcomes';

const row = { notificationId: 'n1', deviceId: 'd1' };

describe('push outcomes', () => {
  it('ok is sent', () => {
    assert.deepEqual(outcomeOf(row, { ok: true }, false), [{ notificationId: 'n1', ok: true }]);
  });

  it('a dead token fails at once and names the device to deactivate, on any attempt', () => {
    const dead = { ok: false as const, deadToken: true, retryable: false, error: 'UNREGISTERED' };
    assert.deepEqual(outcomeOf(row, dead, false), [{ notificationId: 'n1', ok: false, error: 'UNREGISTERED', deadDeviceId: 'd1' }]);
  });

  it('a permanent failure is recorded failed, the device stays active', () => {
    const refused = { ok: false as const, deadToken: false, retryable: false, error: 'SENDER_ID_MISMATCH' };
    assert.deepEqual(outcomeOf(row, refused, false), [{ notificationId: 'n1', ok: false, error: 'SENDER_ID_MISMATCH', deadDeviceId: null }]);
  });

  it('a transient failure stays queued for the retry, and is recorded failed on the last attempt', () => {
    const busy = { ok: false as const, deadToken: false, retryable: true, error: 'UNAVAILABLE' };
    assert.deepEqual(outcomeOf(row, busy, false), []);
    assert.deepEqual(outcomeOf(row, busy, true), [{ notificationId: 'n1', ok: false, error: 'UNAVAILABLE', deadDeviceId: null }]);
    assert.deepEqual(outcomeOf(row, undefined, false), []);
    assert.equal(outcomeOf(row, undefined, true)[0].ok, false);
  });
});
