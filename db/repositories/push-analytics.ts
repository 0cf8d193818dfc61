// The analytics reads (GET /analytics/overview, /analytics/time-series): counts of the
// recorded facts in push_notifications, by the time a notification was queued (index
// push_notifications_app_queued), and of the app's devices. docs/push.md says what each
// number counts.
import { sql, type Executor } from '../db';

export interface Counts {
  sent: number;
  delivered: number;
  opened: number;
  failed: number;
}

// A delivery report proves the push went out even when its outcome was recorded failed
// (a retryable error after the service had accepted it) or not yet recorded: such a
// notification counts as sent, not failed, so delivered ≤ sent and opened ≤ delivered.
export const COUNTS = `
  count(*) FILTER (WHERE status = 'sent' OR delivered_at IS NOT NULL) AS sent,
  count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered,
  count(*) FILTER (WHERE opened_at IS NOT NULL) AS opened,
  count(*) FILTER (WHERE status = 'failed' AND delivered_at IS NULL) AS failed`;

export const toCounts = (r: Record<string, unknown>): Counts => ({
  sent: Number(r.sent ?? 0),
  delivered: Number(r.delivered ?? 0),
  opened: Number(r.opened ?? 0),
  failed: Number(r.failed ?? 0),
});

export interface Overview {
  totalDevices: number;
  activeDevices: number;
  sent: number;
  delivered: number;
  opened: number;
  android: number;
  ios: number;
}

/** Counts over [from, to): devices registered before `to`, notifications queued in the period. */
export async function overview(executor: Executor, appId: string, from: Date, to: Date): Promise<Overview> {
  const { rows } = await sql(
    executor,
    `SELECT d.total, d.active, n.*
       FROM (SELECT count(*) AS total, count(*) FILTER (WHERE is_active) AS active
               FROM push_devices WHERE app_id = $1 AND created_at < $3) d,
            (SELECT ${COUNTS},
                    count(*) FILTER (WHERE (status = 'sent' OR delivered_at IS NOT NULL) AND platform = 'Android') AS android,
                    count(*) FILTER (WHERE (status = 'sent' OR delivered_at IS NOT NULL) AND platform = 'iOS') AS ios
               FROM push_notifications WHERE app_id = $1 AND queued_at >= $2 AND queued_at < $3) n`,
    [appId, from, to],
  );
  const r = rows[0];
  return {
    totalDevices: Number(r.total),
    activeDevices: Number(r.active),
    ...toCounts(r),
    android: Number(r.android),
    ios: Number(r.ios),
  };
}

export type Granularity = 'hour' | 'day' | 'week';

/** One row per bucket (UTC, date_trunc; weeks start on Monday) from `from`'s bucket to before `to`, empty ones included. */
export async function timeSeries(
  executor: Executor,
  appId: string,
  from: Date,
  to: Date,
  granularity: Granularity,
): Promise<Array<Counts & { timestamp: Date }>> {
  const { rows } = await sql(
    executor,
    `WITH buckets AS (
       SELECT b FROM generate_series(date_trunc($4, $2::timestamptz AT TIME ZONE 'UTC'),
                                     ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
                                     ('1 ' || $4)::interval) AS b
     ), facts AS (
       SELECT date_trunc($4, queued_at AT TIME ZONE 'UTC') AS b, ${COUNTS}
         FROM push_notifications WHERE app_id = $1 AND queued_at >= $2 AND queued_at < $3
        GROUP BY 1
     )
     SELECT buckets.b AT TIME ZONE 'UTC' AS timestamp, facts.sent, facts.delivered, facts.opened, facts.failed
       FROM buckets LEFT JOIN facts ON facts.b = buckets.b ORDER BY buckets.b`,
    [appId, from, to, granularity],
  );
  return rows.map((r) => ({ timestamp: r.timestamp as Date, ...toCounts(r) }));
}
