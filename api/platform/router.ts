import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { serveOpenApi } from '../kit/openapi';
import { z } from '../zod';
import { platformAnalyticsRouter } from './analytics/routes';
import { platformAuth } from './auth/middleware';
import { platformAutomationsRouter } from './automations/routes';
import { platformOpenApiDocument, registry } from './openapi';
import { platformTicketsRouter } from './tickets/routes';
import { platformTokensRouter } from './tokens/routes';
import { platformUsersRouter } from './users/routes';
import { platformWorkspacesRouter } from './workspaces/routes';
import { platformWebhooksRouter } from './webhooks/routes';

registry.registerPath({
  method: 'get',
  path: '/platform/v1/health',
  summary: 'Liveness of the API process',
  security: [],
  responses: { 200: { description: 'up', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
});

/**
 * The platform API (the general support platform) under /platform/v1 (docs/platform.md):
 * health and the OpenAPI document without a token, every resource behind platformAuth
 * (api/platform/auth: the token, its limits, Idempotency-Key). Mount one line per resource
 * router here. A dependency that is down is the kit's 503 with Retry-After, in the
 * platform envelope (api/kit/error-middleware.ts).
 */
export function platformRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/platform/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  serveOpenApi(router, platformOpenApiDocument);
  // every route of the resource routers takes a token (the two above stay public)
  const auth = platformAuth(deps);
  const resources = [
    platformTokensRouter,
    platformWorkspacesRouter,
    platformTicketsRouter,
    platformUsersRouter,
    platformAutomationsRouter,
    platformWebhooksRouter,
    platformAnalyticsRouter,
  ];
  for (const resource of resources) router.use(resource(deps, auth).routes());
  return router;
}
