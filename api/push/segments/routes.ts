// Segments (the push spec): create, list per app, and the live device count (active devices
// of the app matching the compiled filter, one parameterised query).
import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { parse } from '../../kit/validation';
import { countSegmentDevices } from '../../../db/repositories/push-devices';
import { findSegment, listSegments } from '../../../db/repositories/push-segments';
import { createSegment } from '../../../domain/push/create-segment';
import { appFor, appRowFor, pushAuth } from '../auth';
import { presentSegment } from './presenters';
import { CreateSegmentBody, ListSegmentsQuery, SegmentIdParams } from './schema';

export function pushSegmentsRouter(deps: AppDeps): Router {
  const router = new Router();
  const anyone = pushAuth(deps, { schemes: ['user', 'apiKey'] });

  router.post('/segments', anyone, async (ctx) => {
    const body = parse(CreateSegmentBody, ctx.request.body);
    const app = await appFor(ctx, deps, body.appId);
    // app_not_found: the app was deleted after appFor found it
    const segment = await createSegment(deps.db, {
      appId: app.id,
      name: body.name,
      description: body.description ?? null,
      filter: body.filter,
    });
    ctx.status = 201;
    ctx.body = presentSegment(segment);
  });

  router.get('/segments', anyone, async (ctx) => {
    const q = parse(ListSegmentsQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    ctx.body = (await listSegments(deps.db, app.id)).map(presentSegment);
  });

  router.get('/segments/:segmentId/device-count', anyone, async (ctx) => {
    const { segmentId } = parse(SegmentIdParams, ctx.params);
    const segment = await appRowFor(ctx, deps, 'segment', segmentId, (id) => findSegment(deps.db, id));
    ctx.body = { count: await countSegmentDevices(deps.db, segment.appId, segment.filter) };
  });

  return router;
}
