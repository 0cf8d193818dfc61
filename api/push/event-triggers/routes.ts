// Event triggers (the push spec): create, list per app, get, change, delete (a user token or
// an API key of the trigger's app), and fire (API key only, the `push-event-fire` group:
// 5,000 a minute per key). Every trigger is reached through its app, as segments are.
import Router from '@koa/router';
import { findEventTrigger, listEventTriggers } from '../../../db/repositories/push-event-triggers';
import { createEventTrigger } from '../../../domain/push/create-event-trigger';
import { deleteEventTrigger, updateEventTrigger } from '../../../domain/push/update-event-trigger';
import type { AppDeps } from '../../deps';
import type { IdempotencyState } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { appFor, appRowFor, principalOf, pushAuth, type PushPrincipal } from '../auth';
import { fireTriggerEvent } from './gateway';
import { presentEventTrigger } from './presenters';
import { CreateEventTriggerBody, EventTriggerIdParams, FireEventBody, ListEventTriggersQuery, UpdateEventTriggerBody } from './schema';

export function pushEventTriggersRouter(deps: AppDeps): Router {
  const router = new Router();
  const anyone = pushAuth(deps, { schemes: ['user', 'apiKey'] });
  const triggerFor = (ctx: Parameters<Router.Middleware>[0], id: string) => appRowFor(ctx, deps, 'event trigger', id, (i) => findEventTrigger(deps.db, i));

  router.post('/event-triggers/fire', pushAuth(deps, { schemes: ['apiKey'], limit: 'push-event-fire' }), async (ctx) => {
    const body = parse(FireEventBody, ctx.request.body);
    const principal = principalOf(ctx) as Extract<PushPrincipal, { kind: 'apiKey' }>;
    ctx.status = 202;
    ctx.body = await fireTriggerEvent(deps, principal.appId, body, ctx.state.idempotency as IdempotencyState | undefined);
  });

  router.post('/event-triggers', anyone, async (ctx) => {
    const body = parse(CreateEventTriggerBody, ctx.request.body);
    const app = await appFor(ctx, deps, body.appId);
    // app_not_found: the app was deleted after appFor found it
    const trigger = await createEventTrigger(deps.db, { ...body, appId: app.id });
    ctx.status = 201;
    ctx.body = presentEventTrigger(trigger);
  });

  router.get('/event-triggers', anyone, async (ctx) => {
    const q = parse(ListEventTriggersQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    ctx.body = (await listEventTriggers(deps.db, app.id)).map(presentEventTrigger);
  });

  router.get('/event-triggers/:triggerId', anyone, async (ctx) => {
    const { triggerId } = parse(EventTriggerIdParams, ctx.params);
    ctx.body = presentEventTrigger(await triggerFor(ctx, triggerId));
  });

  router.patch('/event-triggers/:triggerId', anyone, async (ctx) => {
    const { triggerId } = parse(EventTriggerIdParams, ctx.params);
    const trigger = await triggerFor(ctx, triggerId); // the access check
    const body = parse(UpdateEventTriggerBody, ctx.request.body);
    // event_trigger_not_found when it was deleted meanwhile
    ctx.body = presentEventTrigger(await updateEventTrigger(deps.db, trigger.id, body));
  });

  router.delete('/event-triggers/:triggerId', anyone, async (ctx) => {
    const { triggerId } = parse(EventTriggerIdParams, ctx.params);
    const trigger = await triggerFor(ctx, triggerId);
    await deleteEventTrigger(deps.db, trigger.id);
    ctx.status = 204;
  });

  return router;
}
