import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { idempotency } from '../kit/idempotency';
import { serveOpenApi } from '../kit/openapi';
import { agentsRouter } from './agents/routes';
import { apiKeysRouter, authenticate, publicAuthRouter, rateLimit } from './auth';
import { openApiDocument } from './openapi';
import { playersRouter } from './players/routes';
import { settingsRouter } from './settings/routes';
import { ticketsRouter } from './tickets/routes';
import { webhooksRouter } from './webhooks/routes';

/** The ticketing API under /v1: public routes first, then everything behind authentication. */
export function ticketingRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  serveOpenApi(router, openApiDocument);
  const pub = publicAuthRouter(deps);
  router.use(pub.routes());

  const authed = new Router();
  authed.use(authenticate(deps), rateLimit(deps), idempotency(deps, { scopeOf: (ctx) => ctx.state.auth.keyId }));
  for (const r of [apiKeysRouter(deps), playersRouter(deps), agentsRouter(deps), settingsRouter(deps), ticketsRouter(deps), webhooksRouter(deps)]) {
    authed.use(r.routes());
  }
  router.use(authed.routes());
  return router;
}
