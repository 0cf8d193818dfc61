// The analytics summary's rules (docs/platform.md, "Analytics"), pure: the time window a
// request asks for (defaults, bounds) and the summary's shape from the counted rows
// (db/repositories/platform-analytics.ts): every priority listed, every channel of the
// workspace listed, zeros where nothing happened, medians in whole seconds or null.
import { platformInvalidField } from './errors';
import type { PlatformSlaPolicyName } from './sla.rules';
import { PLATFORM_TICKET_PRIORITIES, type PlatformTicketPriority } from './types';

const DAY_MS = 24 * 3600 * 1000;
/** The window when `from` is not given: the 30 days before `to`. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** The longest window: a year (a leap year's 366 days). */
export const ANALYTICS_MAX_DAYS = 366;
/** Instants a window may name: from the Unix epoch to the end of year 9999 (PostgreSQL's and JavaScript's common ground). */
const EARLIEST = 0;
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

export interface AnalyticsWindow {
  from: Date;
  to: Date;
}

function instant(field: 'from' | 'to', value: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw platformInvalidField(field, 'must be an ISO 8601 date-time');
  if (ms < EARLIEST || ms > LATEST) throw platformInvalidField(field, 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z');
  return ms;
}

/**
 * The half-open window [from, to) a summary covers: `to` defaults to now, `from` to 30 days
 * before `to`; `from` must be before `to`, and the window at most 366 days. Else a
 * `validation_failed` naming the field.
 */
export function analyticsWindow(q: { from?: string; to?: string }, now: Date): AnalyticsWindow {
  const to = q.to === undefined ? now.getTime() : instant('to', q.to);
  const from = q.from === undefined ? to - ANALYTICS_DEFAULT_DAYS * DAY_MS : instant('from', q.from);
  if (from >= to) throw platformInvalidField('from', 'must be before to');
  if (to - from > ANALYTICS_MAX_DAYS * DAY_MS) throw platformInvalidField('to', `must be at most ${ANALYTICS_MAX_DAYS} days after from`);
  if (from < EARLIEST) throw platformInvalidField('from', 'must not be before 1970-01-01T00:00:00Z');
  return { from: new Date(from), to: new Date(to) };
}

/** One group's counts as the query answers them (medians in seconds, null when nothing was measured). */
export interface AnalyticsCounts {
  created: number;
  resolved: number;
  backlog: number;
  medianFirstResponseSeconds: number | null;
  medianResolutionSeconds: number | null;
  breaches: Record<PlatformSlaPolicyName, number>;
}

/** A counted row: the whole window (both keys null), one priority, or one channel. */
export type AnalyticsRow = AnalyticsCounts & { priority: PlatformTicketPriority | null; channelId: string | null };

export interface AnalyticsSummary {
  totals: AnalyticsCounts;
  byPriority: Array<AnalyticsCounts & { priority: PlatformTicketPriority }>;
  byChannel: Array<AnalyticsCounts & { channelId: string }>;
}

export const zeroCounts = (): AnalyticsCounts => ({
  created: 0,
  resolved: 0,
  backlog: 0,
  medianFirstResponseSeconds: null,
  medianResolutionSeconds: null,
  breaches: { first_response: 0, resolution: 0 },
});

const countsOf = ({ priority: _p, channelId: _c, ...counts }: AnalyticsRow): AnalyticsCounts => counts;

/** The summary: totals, the four priorities in their order, the workspace's channels in theirs (then any other channel a ticket names). */
export function analyticsSummary(rows: AnalyticsRow[], channelIds: string[]): AnalyticsSummary {
  const total = rows.find((r) => r.priority === null && r.channelId === null);
  const byPriority = new Map(rows.filter((r) => r.priority !== null).map((r) => [r.priority!, countsOf(r)]));
  const byChannel = new Map(rows.filter((r) => r.channelId !== null).map((r) => [r.channelId!, countsOf(r)]));
  const channels = [...channelIds, ...[...byChannel.keys()].filter((id) => !channelIds.includes(id))];
  return {
    totals: total ? countsOf(total) : zeroCounts(),
    byPriority: PLATFORM_TICKET_PRIORITIES.map((priority) => ({ priority, ...(byPriority.get(priority) ?? zeroCounts()) })),
    byChannel: channels.map((channelId) => ({ channelId, ...(byChannel.get(channelId) ?? zeroCounts()) })),
  };
}
