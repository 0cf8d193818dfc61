// What a transport's answer for one device means for its notification row.
import type { Outcome, PageRow } from '../../db/repositories/push-sends';
import type { PushOutcome } from '../../lib/push/transport';

/**
 * The outcome to record now, or none: a transient failure before the page activity's
 * last attempt leaves the row `queued` for the retry; on the last attempt it is recorded
 * failed, so a send always ends. A dead token is failed at once and deactivates the device.
 */
export function outcomeOf(row: Pick<PageRow, 'notificationId' | 'deviceId'>, result: PushOutcome | undefined, lastAttempt: boolean): Outcome[] {
  if (!result) return lastAttempt ? [{ notificationId: row.notificationId, ok: false, error: 'no answer from the push service' }] : [];
  if (result.ok) return [{ notificationId: row.notificationId, ok: true }];
  if (result.retryable && !result.deadToken && !lastAttempt) return [];
  return [{ notificationId: row.notificationId, ok: false, error: result.error, deadDeviceId: result.deadToken ? row.deviceId : null }];
}
