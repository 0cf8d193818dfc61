// GET /analytics/overview and /analytics/time-series (docs/push.md, "Analytics").
import Router from '@koa/router';
import { overview, timeSeries } from '../../../db/repositories/push-analytics';
import type { AppDeps } from '../../deps';
import { parse } from '../../kit/validation';
import { appFor, pushAuth } from '../auth';
import { presentOverview, presentTimeSeries } from './presenters';
import { OverviewQuery, periodOf, TimeSeriesQuery } from './schema';

export function pushAnalyticsRouter(deps: AppDeps): Router {
  const router = new Router();
  const auth = pushAuth(deps, { schemes: ['user', 'apiKey'] });

  router.get('/analytics/overview', auth, async (ctx) => {
    const q = parse(OverviewQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { start, end } = periodOf(q);
    ctx.body = presentOverview(app.id, { from: q.from, to: q.to }, await overview(deps.db, app.id, start, end));
  });

  router.get('/analytics/time-series', auth, async (ctx) => {
    const q = parse(TimeSeriesQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { start, end } = periodOf(q);
    ctx.body = presentTimeSeries(q.granularity, await timeSeries(deps.db, app.id, start, end, q.granularity));
  });
  return router;
}
