import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { serveOpenApi } from '../kit/openapi';
import { pushOpenApiDocument } from './openapi';

/** Document 3 (push notifications) lives here; health and its OpenAPI document until its issue lands. */
export function pushRouter(_deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  serveOpenApi(router, pushOpenApiDocument);
  return router;
}
