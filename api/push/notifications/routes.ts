// POST /notifications/send, /notifications/track-delivery, /notifications/track-opened.
import Router from '@koa/router';
import { trackNotification, type TrackKind } from '../../../db/repositories/push-tracking';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import type { IdempotencyState } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { appFor, principalOf, pushAuth, type PushPrincipal } from '../auth';
import { SendNotificationBody, TrackBody } from './schema';
import { sendNotification } from './gateway';

export function pushNotificationsRouter(deps: AppDeps): Router {
  const router = new Router();
  router.post('/notifications/send', pushAuth(deps, { schemes: ['user', 'apiKey'], limit: 'push-notifications-send' }), async (ctx) => {
    const body = parse(SendNotificationBody, ctx.request.body);
    const app = await appFor(ctx, deps, body.appId);
    ctx.status = 202;
    ctx.body = await sendNotification(deps, app.id, body, ctx.state.idempotency as IdempotencyState | undefined);
  });

  const track = (kind: TrackKind) =>
    async (ctx: Parameters<Router.Middleware>[0]) => {
      const { notificationId } = parse(TrackBody, ctx.request.body);
      const principal = principalOf(ctx) as Extract<PushPrincipal, { kind: 'apiKey' }>;
      // another app's notification is as unknown as a made-up id
      if (!(await trackNotification(deps.db, principal.appId, notificationId, kind))) {
        throw errors.notFound('not_found', `No notification '${notificationId}' for this app`);
      }
      ctx.status = 204;
    };
  router.post('/notifications/track-delivery', pushAuth(deps, { schemes: ['apiKey'] }), track('delivered'));
  router.post('/notifications/track-opened', pushAuth(deps, { schemes: ['apiKey'] }), track('opened'));
  return router;
}
