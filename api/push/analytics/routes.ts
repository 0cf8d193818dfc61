// GET /analytics/overview and /analytics/time-series (docs/push.md, "Analytics").
import Router from '@koa/router';
import { overview, timeSeries } from '../../../db/repositories/push-analytics';
import type { AppDeps } from '../../deps';
import { parse } from '../../kit/validation';
import { appFor, pushAuth } from '../auth';
import { OverviewQuery, periodOf, TimeSeriesQuery } from './schema';

/** A share of `sent`, 0 when nothing was sent. */
const rate = (part: number, sent: number) => (sent > 0 ? Math.min(1, part / sent) : 0);

export function pushAnalyticsRouter(deps: AppDeps): Router {
  const router = new Router();
  const auth = pushAuth(deps, { schemes: ['user', 'apiKey'] });

  router.get('/analytics/overview', auth, async (ctx) => {
    const q = parse(OverviewQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { start, end } = periodOf(q);
    const o = await overview(deps.db, app.id, start, end);
    ctx.body = {
      appId: app.id,
      period: { from: q.from, to: q.to },
      totalDevices: o.totalDevices,
      activeDevices: o.activeDevices,
      totalNotificationsSent: o.sent,
      deliveryRate: rate(o.delivered, o.sent),
      openRate: rate(o.opened, o.sent),
      platformBreakdown: { android: o.android, ios: o.ios },
    };
  });

  router.get('/analytics/time-series', auth, async (ctx) => {
    const q = parse(TimeSeriesQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { start, end } = periodOf(q);
    const rows = await timeSeries(deps.db, app.id, start, end, q.granularity);
    ctx.body = {
      granularity: q.granularity,
      data: rows.map((r) => ({ timestamp: r.timestamp.toISOString(), sent: r.sent, delivered: r.delivered, opened: r.opened, failed: r.failed })),
    };
  });
  return router;
}
