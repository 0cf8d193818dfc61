import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { AppDeps } from './deps';
import { errorHandler, ticketingEnvelope } from './middleware/errors';
import { requestId } from './middleware/request-id';
import { ticketingRouter } from './ticketing/router';
import { platformRouter } from './platform/router';
import { pushRouter } from './push/router';

/** The whole HTTP surface; no listen here, so tests and the server share it. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(requestId());
  app.use(errorHandler(deps.logger, [['/v1', ticketingEnvelope]]));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.bodyLimit,
      strict: true,
      // rethrow so the error middleware answers in the API's envelope
      onerror: (err) => {
        throw err;
      },
    }),
  );
  for (const router of [ticketingRouter(deps), platformRouter(deps), pushRouter(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}
