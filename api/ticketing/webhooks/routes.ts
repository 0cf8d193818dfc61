import Router from '@koa/router';
import type { Context } from 'koa';
import { webhookRefusals } from '../../../domain/webhooks/errors';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { carriesSecret } from '../../kit/headers';
import { parse } from '../../kit/validation';
import { canUseWorkspace, requireScope, requireWorkspace } from '../access';
import { looksLikeId } from '../../kit/fields';
import { visibleRow } from '../../kit/visible-row';
import { iso } from '../../kit/dates';
import { attemptsOf, listDeliveries } from './deliveries';
import { createEndpoint, deleteEndpoint, patchEndpoint, redeliver, rotateEndpointSecret, sendTests } from './gateway';
import { presentDelivery, presentEndpoint } from './presenters';
import { findEndpoint, listEndpoints, type EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { CreateWebhookBody, DeliveriesQuery, ListWebhooksQuery, PatchWebhookBody, TestWebhookBody, type WebhookEventType } from './schema';

/**
 * Webhook endpoints under /v1 (behind authentication), all with `webhooks:manage`. The
 * scope is checked before the input, so a key that may not call them learns nothing.
 * Decisions (limits, codes, shapes): docs/webhooks.md, "API". The rules are the domain's
 * (domain/webhooks/), reached through gateway.ts.
 */
export function webhooksRouter(deps: AppDeps): Router {
  const router = new Router();

  function requireManage(ctx: Context) {
    const a = requireScope(ctx, 'webhooks:manage');
    // SDK keys live in clients; registering where events go is a server-side act.
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot manage webhooks');
    return a;
  }

  /** A live endpoint the caller may use; any other id is indistinguishable from a missing one. */
  async function visibleEndpoint(ctx: Context, id: string): Promise<EndpointRecord> {
    return visibleRow(
      looksLikeId(id, 'wh') ? findEndpoint(deps.db, id) : null,
      (row) => canUseWorkspace(ctx, deps, row.workspaceId),
      () => webhookRefusals.webhookNotFound(id),
    );
  }

  router.post('/webhooks', async (ctx) => {
    requireManage(ctx);
    const body = parse(CreateWebhookBody, ctx.request.body);
    await requireWorkspace(ctx, deps, body.workspaceId);
    const { endpoint, secret } = await createEndpoint(deps, body);
    const { createdAt, updatedAt, ...rest } = presentEndpoint(endpoint);
    // The signing secret is in the answer: no-store, and sealed in the idempotency store.
    carriesSecret(ctx);
    ctx.status = 201;
    ctx.body = { ...rest, secret, createdAt, updatedAt };
  });

  router.get('/webhooks', async (ctx) => {
    requireManage(ctx);
    const query = parse(ListWebhooksQuery, ctx.query);
    await requireWorkspace(ctx, deps, query.workspaceId);
    const rows = await listEndpoints(deps.db, query.workspaceId);
    ctx.body = { total: rows.length, data: rows.map(presentEndpoint) };
  });

  router.get('/webhooks/:id', async (ctx) => {
    requireManage(ctx);
    ctx.body = presentEndpoint(await visibleEndpoint(ctx, ctx.params.id));
  });

  router.patch('/webhooks/:id', async (ctx) => {
    requireManage(ctx);
    const body = parse(PatchWebhookBody, ctx.request.body);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    ctx.body = presentEndpoint(await patchEndpoint(deps, endpoint.id, body));
  });

  router.delete('/webhooks/:id', async (ctx) => {
    requireManage(ctx);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    await deleteEndpoint(deps, endpoint.id);
    ctx.status = 204;
  });

  router.post('/webhooks/:id/rotate-secret', async (ctx) => {
    requireManage(ctx);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    const { endpoint: rotated, secret, previousExpiresAt } = await rotateEndpointSecret(deps, endpoint.id);
    const { createdAt, updatedAt, ...rest } = presentEndpoint(rotated);
    // The new secret is in the answer: no-store, and sealed in the idempotency store.
    carriesSecret(ctx);
    ctx.body = { ...rest, secret, previousSecretExpiresAt: iso(previousExpiresAt), createdAt, updatedAt };
  });

  router.get('/webhooks/:id/deliveries', async (ctx) => {
    requireManage(ctx);
    const query = parse(DeliveriesQuery, ctx.query);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    const page = await listDeliveries(deps.db, endpoint.id, query);
    const attempts = await attemptsOf(deps.db, page.rows.map((r) => r.id));
    ctx.body = {
      data: page.rows.map((r) => presentDelivery(r, attempts.get(r.id) ?? [])),
      pagination: { limit: query.limit, hasMore: page.hasMore, nextCursor: page.nextCursor },
    };
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (ctx) => {
    requireManage(ctx);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    if (!looksLikeId(ctx.params.deliveryId, 'evt')) throw webhookRefusals.deliveryNotFound(ctx.params.deliveryId);
    ctx.status = 202;
    ctx.body = await redeliver(deps, endpoint, ctx.params.deliveryId);
  });

  router.post('/webhooks/:id/test', async (ctx) => {
    requireManage(ctx);
    const body = parse(TestWebhookBody, ctx.request.body);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    if (body.all) {
      // one of each subscribed type (docs/webhooks.md, "Test mode"); `event: "*"` stays refused like the wildcard
      const { done, deliveries } = await sendTests(deps, endpoint, endpoint.events as WebhookEventType[]);
      ctx.status = done ? 200 : 202;
      ctx.body = { data: deliveries };
      return;
    }
    const event = body.event ?? (endpoint.events[0] as WebhookEventType);
    if (!endpoint.events.includes(event)) {
      throw errors.validation(`event: the webhook is not subscribed to '${event}'; it receives ${endpoint.events.join(', ')}`);
    }
    const { done, deliveries } = await sendTests(deps, endpoint, [event]);
    ctx.status = done ? 200 : 202;
    ctx.body = deliveries[0];
  });

  return router;
}
