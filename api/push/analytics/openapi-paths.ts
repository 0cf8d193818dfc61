// The analytics endpoints in the /api/v1 OpenAPI document, from the route schemas.
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';
import { Overview, OverviewQuery, TimeSeries, TimeSeriesQuery } from './schema';

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
