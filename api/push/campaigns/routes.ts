// Campaigns (the push spec and the extensions of docs/push.md "Campaigns"): create, list,
// get, send, schedule, cancel, analytics. Thin: the commands are domain/push/campaign.ts
// and the gateway (the one layer that speaks to Temporal).
import Router from '@koa/router';
import { findCampaign, listCampaigns, sendCountsByPlatform } from '../../../db/repositories/push-campaigns';
import { createCampaign } from '../../../domain/push/campaign';
import { checkScheduledAt } from '../../../domain/push/campaign.rules';
import { isDomainError } from '../../../domain/errors';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import type { IdempotencyState } from '../../kit/idempotency';
import { offsetOf, pageOf } from '../../kit/pagination';
import { parse } from '../../kit/validation';
import { appFor, appRowFor, pushAuth } from '../auth';
import { cancel, schedule, send } from './gateway';
import { presentAnalytics, presentCampaign } from './presenters';
import { CampaignIdParams, CreateCampaignBody, ListCampaignsQuery, ScheduleCampaignBody } from './schema';

const NO_COUNTS = { sent: 0, delivered: 0, opened: 0, failed: 0 };

export function pushCampaignsRouter(deps: AppDeps): Router {
  const router = new Router();
  const anyone = pushAuth(deps, { schemes: ['user', 'apiKey'] });
  // another company's campaign, an unknown id and a malformed one: the same 404
  const campaignOf = (ctx: Parameters<Router.Middleware>[0]) =>
    appRowFor(ctx, deps, 'campaign', parse(CampaignIdParams, ctx.params).campaignId, (id) => findCampaign(deps.db, id));

  router.post('/campaigns', anyone, async (ctx) => {
    const body = parse(CreateCampaignBody, ctx.request.body);
    const app = await appFor(ctx, deps, body.appId);
    const idem = ctx.state.idempotency as IdempotencyState | undefined;
    const campaign = await createCampaign(deps.db, {
      appId: app.id,
      name: body.name,
      title: body.title,
      body: body.body,
      imageUrl: body.imageUrl ?? null,
      deepLink: body.deepLink ?? null,
      customData: body.customData ?? {},
      targetType: body.targetType,
      segmentId: body.segmentId?.toLowerCase() ?? null,
    }, idem);
    ctx.status = 201;
    ctx.body = presentCampaign(campaign);
  });

  router.get('/campaigns', anyone, async (ctx) => {
    const q = parse(ListCampaignsQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { items, total } = await listCampaigns(deps.db, app.id, offsetOf(q), q.pageSize);
    ctx.body = pageOf(items.map(presentCampaign), total, q);
  });

  router.get('/campaigns/:campaignId', anyone, async (ctx) => {
    ctx.body = presentCampaign(await campaignOf(ctx));
  });

  router.post('/campaigns/:campaignId/send', anyone, async (ctx) => {
    const campaign = await campaignOf(ctx);
    ctx.status = 202;
    ctx.body = await send(deps, campaign, ctx.state.idempotency as IdempotencyState | undefined);
  });

  router.post('/campaigns/:campaignId/schedule', anyone, async (ctx) => {
    const campaign = await campaignOf(ctx);
    const at = new Date(parse(ScheduleCampaignBody, ctx.request.body).scheduledAt);
    try {
      checkScheduledAt(at, new Date());
    } catch (err) {
      if (isDomainError(err)) throw errors.validation(err.message, { scheduledAt: [err.message] });
      throw err;
    }
    ctx.body = presentCampaign(await schedule(deps, campaign, at));
  });

  router.post('/campaigns/:campaignId/cancel', anyone, async (ctx) => {
    const { campaign, alreadySent } = await cancel(deps, await campaignOf(ctx));
    ctx.body = { ...presentCampaign(campaign), alreadySent };
  });

  router.get('/campaigns/:campaignId/analytics', anyone, async (ctx) => {
    const campaign = await campaignOf(ctx);
    const counts = campaign.sendId ? await sendCountsByPlatform(deps.db, campaign.sendId) : { android: NO_COUNTS, ios: NO_COUNTS };
    ctx.body = presentAnalytics(campaign.id, counts);
  });

  return router;
}
