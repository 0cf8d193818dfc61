import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** Document 2 (the support platform) lives here; only health until its issue lands. */
export function platformRouter(_deps: AppDeps): Router {
  const router = new Router({ prefix: '/platform/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  return router;
}
