// GET /analytics/overview and /analytics/time-series: query and response schemas, and
// their OpenAPI paths.
import { z } from '../../zod';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';

export const GRANULARITIES = ['hour', 'day', 'week'] as const;

/** The most buckets one time-series answers (a year of days, six weeks of hours). */
export const MAX_BUCKETS = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `from`/`to`: a date (`2026-11-01`, a whole UTC day) or an ISO 8601 date-time with its
 * offset. The period is [from, to]: a date `to` includes that whole day.
 */
const Instant = (which: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .refine((s) => (DATE.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(DATE.test(s) ? `${s}T00:00:00Z` : s)), {
      message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
    })
    .openapi({ description: `${which === 'from' ? 'Start' : 'End'} of the period (inclusive): YYYY-MM-DD (UTC day) or an ISO 8601 date-time`, example: which === 'from' ? '2026-11-01' : '2026-11-30' });

/** The period's bounds as [start, end): a date-only `to` ends after its day. */
export function periodOf(q: { from: string; to: string }): { start: Date; end: Date } {
  const start = new Date(DATE.test(q.from) ? `${q.from}T00:00:00Z` : q.from);
  const end = DATE.test(q.to) ? new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000) : new Date(Date.parse(q.to) + 1);
  return { start, end };
}

const PeriodQuery = z.object({
  appId: z.string().uuid(),
  from: Instant('from'),
  to: Instant('to'),
});

const ordered = (q: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const { start, end } = periodOf(q);
  if (end <= start) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
};

export const OverviewQuery = PeriodQuery.superRefine(ordered);

const HOURS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;

export const TimeSeriesQuery = PeriodQuery.extend({
  granularity: z.enum(GRANULARITIES).default('day').openapi({ description: 'Bucket size (UTC; weeks start on Monday); default day' }),
}).superRefine((q, ctx) => {
  ordered(q, ctx);
  const { start, end } = periodOf(q);
  if ((end.getTime() - start.getTime()) / HOURS[q.granularity] > MAX_BUCKETS) {
    ctx.addIssue({ code: 'custom', path: ['granularity'], message: `the period holds more than ${MAX_BUCKETS} ${q.granularity} buckets` });
  }
});

const Rate = z.number().min(0).max(1);

export const Overview = z
  .object({
    appId: z.string().uuid(),
    period: z.object({ from: z.string(), to: z.string() }),
    totalDevices: z.number().int(),
    activeDevices: z.number().int(),
    totalNotificationsSent: z.number().int(),
    deliveryRate: Rate,
    openRate: Rate,
    platformBreakdown: z.object({ android: z.number().int(), ios: z.number().int() }).openapi({ description: 'Notifications sent in the period, by platform' }),
  })
  .openapi('AnalyticsOverview');
export type Overview = z.infer<typeof Overview>;

export const TimeSeries = z
  .object({
    granularity: z.enum(GRANULARITIES),
    data: z.array(
      z.object({
        timestamp: z.string().openapi({ description: 'Start of the bucket (UTC)' }),
        sent: z.number().int(),
        delivered: z.number().int(),
        opened: z.number().int(),
        failed: z.number().int(),
      }),
    ),
  })
  .openapi('AnalyticsTimeSeries');
export type TimeSeries = z.infer<typeof TimeSeries>;

// The OpenAPI paths of the resource, from the schemas above.

registry.registerPath({
  method: 'get',
  path: '/api/v1/analytics/overview',
  summary: "An app's devices and the notifications queued in a period, with delivery and open rates (0 when nothing was sent)",
  security: USER_OR_API_KEY,
  request: { query: OverviewQuery.innerType() },
  responses: {
    200: { description: 'the overview', content: { 'application/json': { schema: Overview } } },
    ...errorResponses(404),
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/analytics/time-series',
  summary: 'Sent, delivered, opened and failed notifications per hour, day or week (UTC buckets, empty ones included)',
  security: USER_OR_API_KEY,
  request: { query: TimeSeriesQuery.innerType() },
  responses: {
    200: { description: 'one entry per bucket', content: { 'application/json': { schema: TimeSeries } } },
    ...errorResponses(404),
  },
});
