import Router from '@koa/router';
import type { Middleware } from 'koa';
import { platformAnalyticsRows } from '../../../db/repositories/platform-analytics';
import { findPlatformWorkspace, listPlatformChannels } from '../../../db/repositories/platform-workspaces';
import { hasRole, reachesWorkspace } from '../../../domain/platform/access.rules';
import { analyticsSummary, analyticsWindow } from '../../../domain/platform/analytics.rules';
import { platformForbidden, platformNotFound } from '../../../domain/platform/errors';
import { nowOf, type AppDeps } from '../../deps';
import { looksLikeId } from '../../kit/fields';
import { parse } from '../../kit/validation';
import { visibleRow } from '../../kit/visible-row';
import { principalOf } from '../auth/middleware';
import { presentSummary } from './presenters';
import { SummaryQuery } from './schema';

/**
 * Analytics (docs/platform.md, "Analytics"): the summary of a workspace's tickets in the
 * token's environment over a window. Managers and admins only (an agent: 403 before any
 * lookup, so it learns nothing of other workspaces); a workspace out of reach: 404.
 */
export function platformAnalyticsRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();

  router.get('/analytics/summary', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(SummaryQuery, ctx.query);
    if (!hasRole(caller, 'manager')) throw platformForbidden('Only a manager or an admin may read analytics');
    const window = analyticsWindow(q, nowOf(deps));
    const id = q.workspace_id ?? caller.workspaceId;
    const workspace = await visibleRow(
      looksLikeId(id, 'ws') ? findPlatformWorkspace(deps.db, id) : null,
      (w) => reachesWorkspace(caller, w),
      () => platformNotFound('workspace', id),
    );
    const [rows, channels] = await Promise.all([
      platformAnalyticsRows(deps.db, { workspaceId: workspace.id, environment: caller.environment, ...window }),
      listPlatformChannels(deps.db, workspace.id),
    ]);
    ctx.body = presentSummary(
      workspace.id,
      caller.environment,
      window,
      analyticsSummary(rows, channels.map((c) => c.id)),
    );
  });

  return router;
}
