import type { Counts, Granularity, Overview as OverviewCounts } from '../../../db/repositories/push-analytics';
import type { Overview, TimeSeries } from './schema';
import { rateOf } from '../../../domain/push/analytics.rules';
import { iso } from '../../kit/dates';

/** The spec's analytics overview of one app over a period. */
export function presentOverview(appId: string, period: { from: string; to: string }, o: OverviewCounts): Overview {
  return {
    appId,
    period,
    totalDevices: o.totalDevices,
    activeDevices: o.activeDevices,
    totalNotificationsSent: o.sent,
    deliveryRate: rateOf(o.delivered, o.sent),
    openRate: rateOf(o.opened, o.sent),
    platformBreakdown: { android: o.android, ios: o.ios },
  };
}

/** The spec's time series: one point per bucket of the granularity. */
export function presentTimeSeries(granularity: Granularity, points: Array<Counts & { timestamp: Date }>): TimeSeries {
  return {
    granularity,
    data: points.map((r) => ({ timestamp: iso(r.timestamp), sent: r.sent, delivered: r.delivered, opened: r.opened, failed: r.failed })),
  };
}
