import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { serveOpenApi } from '../kit/openapi';
import { platformOpenApiDocument } from './openapi';

/** The platform API (the support platform) lives here; so far health and its OpenAPI document. */
export function platformRouter(_deps: AppDeps): Router {
  const router = new Router({ prefix: '/platform/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  serveOpenApi(router, platformOpenApiDocument);
  return router;
}
