// The platform analytics summary's one query (docs/platform.md, "Analytics"): counts and
// medians over the recorded facts of a workspace's tickets in one environment (created_at,
// first_response_at, resolved_at / closed_at, the breach times), for the whole window, per
// priority and per channel in one pass (GROUPING SETS). Soft-deleted tickets are left out,
// as every read leaves them out. Every fact counted happens to a ticket created before
// `to`, so the scan is the workspace's live tickets created before `to`, through the
// (workspace_id, environment, created_at) index of the list (platform_tickets_live).
import type { AnalyticsRow } from '../../domain/platform/analytics.rules';
import type { PlatformEnvironment } from '../../domain/platform/types';
import { sql, type SqlExecutor } from '../db';

export interface AnalyticsScope {
  workspaceId: string;
  environment: PlatformEnvironment;
  from: Date;
  to: Date;
}

interface SummaryRow {
  priority: AnalyticsRow['priority'];
  channel_id: string | null;
  grouping: number;
  created: number;
  resolved: number;
  backlog: number;
  median_first_response: number | null;
  median_resolution: number | null;
  first_response_breaches: number;
  resolution_breaches: number;
}

// done_at: when the ticket was dealt with, its resolution or, closed without one, its close
const SUMMARY = `
  WITH t AS (
    SELECT priority, channel_id, created_at, first_response_at, COALESCE(resolved_at, closed_at) AS done_at,
           first_response_breached_at, resolution_breached_at
      FROM platform_tickets
     WHERE workspace_id = $1 AND environment = $2 AND deleted_at IS NULL AND created_at < $4
  )
  SELECT priority, channel_id, GROUPING(priority, channel_id)::int AS grouping,
         (count(*) FILTER (WHERE created_at >= $3))::int AS created,
         (count(*) FILTER (WHERE done_at >= $3 AND done_at < $4))::int AS resolved,
         (count(*) FILTER (WHERE done_at IS NULL OR done_at >= $4))::int AS backlog,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM first_response_at - created_at))
           FILTER (WHERE first_response_at >= $3 AND first_response_at < $4) AS median_first_response,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM done_at - created_at))
           FILTER (WHERE done_at >= $3 AND done_at < $4) AS median_resolution,
         (count(*) FILTER (WHERE first_response_breached_at >= $3 AND first_response_breached_at < $4))::int AS first_response_breaches,
         (count(*) FILTER (WHERE resolution_breached_at >= $3 AND resolution_breached_at < $4))::int AS resolution_breaches
    FROM t
   GROUP BY GROUPING SETS ((), (priority), (channel_id))`;

const seconds = (v: number | string | null) => (v === null ? null : Math.round(Number(v)));

/** The window's rows: the totals (both keys null), one per priority and one per channel that has tickets. */
export async function platformAnalyticsRows(executor: SqlExecutor, s: AnalyticsScope): Promise<AnalyticsRow[]> {
  const { rows } = await sql<SummaryRow>(executor, SUMMARY, [s.workspaceId, s.environment, s.from, s.to]);
  return rows.map((r) => ({
    // GROUPING: 0 both grouped by, 1 channel_id rolled up, 2 priority rolled up, 3 the totals
    priority: r.grouping === 1 ? r.priority : null,
    channelId: r.grouping === 2 ? r.channel_id : null,
    created: r.created,
    resolved: r.resolved,
    backlog: r.backlog,
    medianFirstResponseSeconds: seconds(r.median_first_response),
    medianResolutionSeconds: seconds(r.median_resolution),
    breaches: { first_response: r.first_response_breaches, resolution: r.resolution_breaches },
  }));
}
