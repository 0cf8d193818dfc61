import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** Document 3 (push notifications) lives here; only health until its issue lands. */
export function pushRouter(_deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/v1' });
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  return router;
}
