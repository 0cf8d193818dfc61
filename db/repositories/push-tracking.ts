// Delivery and open reports of devices (POST /notifications/track-*): each sets its
// timestamp once (a repeat counts once), and an open implies the delivery.
import { sql, type Executor } from '../db';

export type TrackKind = 'delivered' | 'opened';

/** True when the notification belongs to `appId` (recorded now or before); false: unknown to the app. */
export async function trackNotification(executor: Executor, appId: string, notificationId: string, kind: TrackKind): Promise<boolean> {
  const set =
    kind === 'opened'
      ? `opened_at = COALESCE(opened_at, now()), delivered_at = COALESCE(delivered_at, now())`
      : `delivered_at = COALESCE(delivered_at, now())`;
  const { rowCount } = await sql(
    executor,
    `UPDATE push_notifications SET ${set} WHERE id = $1 AND app_id = $2`,
    [notificationId, appId],
  );
  return (rowCount ?? 0) > 0;
}
