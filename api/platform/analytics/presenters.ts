import type { AnalyticsCounts, AnalyticsSummary, AnalyticsWindow } from '../../../domain/platform/analytics.rules';
import type { PlatformEnvironment } from '../../../domain/platform/types';
import { iso } from '../../kit/dates';
import type { Summary } from './schema';

function presentCounts(c: AnalyticsCounts) {
  return {
    created: c.created,
    resolved: c.resolved,
    backlog: c.backlog,
    median_first_response_seconds: c.medianFirstResponseSeconds,
    median_resolution_seconds: c.medianResolutionSeconds,
    sla_breaches: { first_response: c.breaches.first_response, resolution: c.breaches.resolution },
  };
}

/** The summary as GET /analytics/summary answers it (snake_case). */
export function presentSummary(workspaceId: string, environment: PlatformEnvironment, w: AnalyticsWindow, s: AnalyticsSummary): Summary {
  return {
    workspace_id: workspaceId,
    environment,
    from: iso(w.from),
    to: iso(w.to),
    totals: presentCounts(s.totals),
    by_priority: s.byPriority.map((p) => ({ priority: p.priority, ...presentCounts(p) })),
    by_channel: s.byChannel.map((c) => ({ channel_id: c.channelId, ...presentCounts(c) })),
  };
}
