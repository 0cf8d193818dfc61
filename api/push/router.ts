import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { serveOpenApi } from '../kit/openapi';
import { pushAnalyticsRouter } from './analytics/routes';
import { pushApiKeysRouter } from './api-keys/routes';
import { pushAppsRouter } from './apps/routes';
import { pushAuthRouter } from './auth/routes';
import { pushCampaignsRouter } from './campaigns/routes';
import { pushDevicesRouter } from './devices/routes';
import { pushEventTriggersRouter } from './event-triggers/routes';
import { pushNotificationsRouter } from './notifications/routes';
import { pushSegmentsRouter } from './segments/routes';
import { pushTrialRequestsRouter } from './trial-requests/routes';
import { anonymousLimit, pushHealth } from './health';
import { pushOpenApiDocument } from './openapi';

/**
 * The push API (push notifications) under /api/v1. Each resource router authenticates
 * its own routes with pushAuth (api/push/auth): the schemes and the Limits-table group
 * differ per route. Mount one line per resource router here. A dependency that is down
 * becomes a 503 SERVICE_UNAVAILABLE with Retry-After in the push envelope in one place for
 * the three APIs: the kit's error middleware (api/kit/dependency-errors.ts).
 */
export function pushRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/v1' });
  const anonymous = anonymousLimit(deps);
  router.get('/health', anonymous, pushHealth(deps));
  router.get('/openapi.json', anonymous); // then the document (serveOpenApi), with X-RateLimit-*
  serveOpenApi(router, pushOpenApiDocument);
  for (const r of [
    pushAuthRouter(deps),
    pushAppsRouter(deps),
    pushApiKeysRouter(deps),
    pushDevicesRouter(deps),
    pushSegmentsRouter(deps),
    pushNotificationsRouter(deps),
    pushAnalyticsRouter(deps),
    pushEventTriggersRouter(deps),
    pushCampaignsRouter(deps),
    pushTrialRequestsRouter(deps),
  ]) {
    router.use(r.routes());
  }
  return router;
}
