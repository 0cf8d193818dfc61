import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { serveOpenApi } from '../kit/openapi';
import { pushApiKeysRouter } from './api-keys/routes';
import { pushAppsRouter } from './apps/routes';
import { pushAuthRouter } from './auth/routes';
import { dependencyErrors } from './dependency-errors';
import { anonymousLimit, pushHealth } from './health';
import { pushOpenApiDocument } from './openapi';

/**
 * Document 3 (push notifications) under /api/v1. Each resource router authenticates
 * its own routes with pushAuth (api/push/auth): the schemes and the Limits-table group
 * differ per route. Mount one line per resource router here.
 */
export function pushRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/v1' });
  router.use(dependencyErrors(deps));
  const anonymous = anonymousLimit(deps);
  router.get('/health', anonymous, pushHealth(deps));
  router.get('/openapi.json', anonymous); // then the document (serveOpenApi), with X-RateLimit-*
  serveOpenApi(router, pushOpenApiDocument);
  for (const r of [pushAuthRouter(deps), pushAppsRouter(deps), pushApiKeysRouter(deps)]) router.use(r.routes());
  return router;
}
