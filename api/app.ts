import Koa from 'koa';
import type { AppDeps } from './deps';
import { ticketingEnvelope, platformEnvelope, pushEnvelope } from './kit/envelopes';
import { errorHandler } from './kit/error-middleware';
import { securityHeaders } from './kit/headers';
import { inputLimits } from './kit/input-limits';
import { allowedMethodsOf } from './kit/methods';
import { requestId } from './kit/request-id';
import { requestLog } from './kit/request-log';
import { clientAddress, trustedProxies } from './kit/client-ip';
import { cors } from './kit/cors';
import { ticketingRouter } from './ticketing/router';
import { platformRouter } from './platform/router';
import { pushRouter } from './push/router';
import { webRouter } from './web/router';
import { pageErrorEnvelope } from './web/error-page';
import { settingsSessionRouter } from './web/session-routes';
import { webSessions } from './kit/session';
import { ticketingWebSignIn } from './ticketing/auth/web-sign-in';
import { platformWebSignIn } from './platform/auth/web-sign-in';
import { pushWebSignIn } from './push/auth/web-sign-in';

/**
 * The push endpoints a first-party web page posts to from the browser (the trial form,
 * sign-in, registration, set-password): CORS for CORS_ORIGINS (docs/trial-onboarding.md, "CORS").
 */
export const PUSH_PUBLIC_PATHS = ['/api/v1/trial-requests', '/api/v1/auth/register', '/api/v1/auth/login', '/api/v1/auth/refresh', '/api/v1/auth/setup-token', '/api/v1/auth/set-password'];

/** The whole HTTP surface; no listen here, so tests and the server share it. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  // app.proxy serves X-Forwarded-Proto (the kit's HSTS); the client address is decided by
  // clientAddress (X-Forwarded-For only from TRUSTED_PROXIES), never by Koa's trust-everyone rule.
  app.proxy = true;
  // the settings pages' sign-in takes each API's own credential check (docs/settings.md, "Sessions")
  const signIns = [ticketingWebSignIn(deps), platformWebSignIn(deps), pushWebSignIn(deps)];
  const routers = [ticketingRouter(deps), platformRouter(deps), pushRouter(deps), webRouter(), settingsSessionRouter(deps, signIns)];
  app.use(clientAddress(trustedProxies(deps.config.trustedProxies)));
  app.use(securityHeaders());
  app.use(requestId());
  app.use(requestLog(deps.logger));
  // outside the error middleware: error answers carry the CORS headers too
  app.use(cors({ origins: deps.config.corsOrigins, paths: PUSH_PUBLIC_PATHS }));
  app.use(
    errorHandler({
      logger: deps.logger,
      envelopes: [
        ['/v1', ticketingEnvelope],
        ['/platform/v1', platformEnvelope],
        ['/api/v1', pushEnvelope],
        // the pages' addresses answer errors as pages; the session endpoints are JSON
        ['/settings/session', ticketingEnvelope],
        ['/settings', pageErrorEnvelope],
        ['/admin', pageErrorEnvelope],
        ['/setup-password', pageErrorEnvelope],
      ],
      allowedMethods: allowedMethodsOf(routers),
      bodyLimit: deps.config.bodyLimit,
    }),
  );
  app.use(inputLimits({ bodyLimit: deps.config.bodyLimit }));
  // a request without Authorization may carry a settings session; each API's auth decides what it may do
  app.use(webSessions(deps, ['/v1', '/platform/v1', '/api/v1', '/settings/session']));
  // No allowedMethods(): the error middleware answers 405 with Allow (and 404) in the API's envelope.
  for (const router of routers) app.use(router.routes());
  return app;
}
