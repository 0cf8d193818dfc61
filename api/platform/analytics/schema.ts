// The platform analytics summary (the platform spec, "What the service does": analytics;
// docs/platform.md, "Analytics"): the query and the answer's schemas, and their OpenAPI path.
import { z } from '../../zod';
import { json } from '../../kit/openapi';
import { PLATFORM_TICKET_PRIORITIES } from '../../../domain/platform/types';
import { ANALYTICS_DEFAULT_DAYS, ANALYTICS_MAX_DAYS } from '../../../domain/platform/analytics.rules';
import { errorResponses, registry, security } from '../openapi';

const Priority = z.enum(PLATFORM_TICKET_PRIORITIES as ['critical', 'high', 'normal', 'low']);
const dateTime = (what: string) =>
  z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional().openapi({ description: what, format: 'date-time', example: '2026-11-01T00:00:00Z' });

export const SummaryQuery = z.object({
  workspace_id: z.string().min(1).max(64).optional().openapi({
    description: "The workspace (default: the token's). One out of the caller's reach (another's workspace, or another organisation's) is a 404",
    example: 'ws_01jd3k8xq7m2c4v9b0n6t5r8ya',
  }),
  from: dateTime(`The window's start, included (default: ${ANALYTICS_DEFAULT_DAYS} days before \`to\`); from 1970-01-01T00:00:00Z`),
  to: dateTime(`The window's end, excluded (default: now); at most ${ANALYTICS_MAX_DAYS} days after \`from\`, until 9999-12-31T23:59:59.999Z`),
});
export type SummaryQuery = z.infer<typeof SummaryQuery>;

const seconds = (what: string) => z.number().int().min(0).nullable().openapi({ description: `${what}, in whole seconds; null when no ticket counts` });
const count = (what: string) => z.number().int().min(0).openapi({ description: what });

export const Counts = z
  .object({
    created: count('tickets created in the window'),
    resolved: count('tickets resolved in the window (resolved_at, or closed_at for one closed without being resolved)'),
    backlog: count('tickets created before `to` and not resolved or closed by `to` (open or pending then)'),
    median_first_response_seconds: seconds('median time from creation to the first reply, over tickets first answered in the window'),
    median_resolution_seconds: seconds('median time from creation to the resolution, over tickets resolved in the window'),
    sla_breaches: z
      .object({ first_response: count('first-response breaches in the window (breach time = the deadline)'), resolution: count('resolution breaches in the window') })
      .openapi({ description: 'SLA breaches per policy (ticket.sla_breached)' }),
  })
  .openapi('PlatformAnalyticsCounts');

export const Summary = z
  .object({
    workspace_id: z.string(),
    environment: z.enum(['live', 'test']).openapi({ description: "The token's environment: live or sandbox tickets only" }),
    from: z.string().datetime(),
    to: z.string().datetime(),
    totals: Counts,
    by_priority: z.array(Counts.extend({ priority: Priority })).openapi({ description: "The four priorities, critical first (by the ticket's priority now)" }),
    by_channel: z.array(Counts.extend({ channel_id: z.string() })).openapi({ description: "The workspace's channels, in their order" }),
  })
  .openapi('PlatformAnalyticsSummary');
export type Summary = z.infer<typeof Summary>;

registry.registerPath({
  method: 'get',
  path: '/platform/v1/analytics/summary',
  summary: 'Ticket analytics of a workspace over a window (manager or above): created, resolved, backlog, median first-response and resolution times, SLA breaches; totals, by priority and by channel',
  security,
  request: { query: SummaryQuery },
  responses: { 200: json(Summary, 'the summary'), ...errorResponses(400, 403, 404) },
});
