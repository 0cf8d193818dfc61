import Router from '@koa/router';
import type { Context } from 'koa';
import { masterKey } from '../../../lib/crypto/master-key';
import { encryptSecret } from '../../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../../lib/webhooks/signing';
import { checkWebhookUrl } from '../../../lib/webhooks/url-policy';
import { newId } from '../../../lib/ids';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { carriesSecret } from '../../kit/headers';
import { parse } from '../../kit/validation';
import { canUseWorkspace, requireScope, requireWorkspace } from '../access';
import { looksLikeId } from '../../kit/fields';
import { visibleRow } from '../../kit/visible-row';
import { attemptsOf, listDeliveries } from './deliveries';
import { redeliver, sendTest } from './gateway';
import { presentDelivery, presentEndpoint } from './presenters';
import {
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
  type EndpointRecord,
} from '../../../db/repositories/webhook-endpoints';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  ListWebhooksQuery,
  MAX_ENDPOINTS_PER_WORKSPACE,
  PatchWebhookBody,
  TestWebhookBody,
  type WebhookEventType,
} from './schema';

/**
 * Webhook endpoints under /v1 (behind authentication), all with `webhooks:manage`. The
 * scope is checked before the input, so a key that may not call them learns nothing.
 * Decisions (limits, codes, shapes): docs/webhooks.md, "API".
 */
export function webhooksRouter(deps: AppDeps): Router {
  const router = new Router();

  function requireManage(ctx: Context) {
    const a = requireScope(ctx, 'webhooks:manage');
    // SDK keys live in clients; registering where events go is a server-side act.
    if (a.type === 'sdk') throw errors.forbidden('SDK keys cannot manage webhooks');
    return a;
  }

  /** HTTPS to a public host (url-policy.ts); the reason is the 400's message. */
  async function publicUrl(url: string): Promise<string> {
    const check = await checkWebhookUrl(url, { allowLoopback: deps.config.webhookAllowLoopback, resolve: deps.resolveHost });
    if (!check.ok) throw errors.validation(check.reason);
    return check.url;
  }

  /** A live endpoint the caller may use; any other id is indistinguishable from a missing one. */
  async function visibleEndpoint(ctx: Context, id: string): Promise<EndpointRecord> {
    return visibleRow(
      looksLikeId(id, 'wh') ? findEndpoint(deps.db, id) : null,
      (row) => canUseWorkspace(ctx, deps, row.workspaceId),
      () => errors.notFound('webhook_not_found', `No webhook endpoint '${id}' in this workspace`),
    );
  }

  router.post('/webhooks', async (ctx) => {
    requireManage(ctx);
    const body = parse(CreateWebhookBody, ctx.request.body);
    await requireWorkspace(ctx, deps, body.workspaceId);
    const url = await publicUrl(body.url);
    const id = newId('wh');
    const secret = newEndpointSecret();
    const row = await insertEndpoint(
      deps.db,
      {
        id,
        workspaceId: body.workspaceId,
        url,
        events: body.events,
        description: body.description,
        active: body.active,
        // bound to the id: a ciphertext copied to another endpoint does not decrypt
        secretBox: encryptSecret(masterKey(deps.config), secret, id),
      },
      MAX_ENDPOINTS_PER_WORKSPACE,
    );
    if (!row) {
      throw errors.conflict(
        'webhook_limit_reached',
        `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first`,
      );
    }
    const { createdAt, updatedAt, ...rest } = presentEndpoint(row);
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
    const url = body.url === undefined ? undefined : await publicUrl(body.url);
    // Deliveries still retrying read url and active at each attempt, so they follow the change.
    const row = await updateEndpoint(deps.db, endpoint.id, { ...body, url });
    if (!row) throw errors.notFound('webhook_not_found', `No webhook endpoint '${endpoint.id}' in this workspace`);
    ctx.body = presentEndpoint(row);
  });

  router.delete('/webhooks/:id', async (ctx) => {
    requireManage(ctx);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    // Soft: the delivery log keeps pointing at it; the delivery activity skips deleted endpoints.
    if (!(await deleteEndpoint(deps.db, endpoint.id))) {
      throw errors.notFound('webhook_not_found', `No webhook endpoint '${endpoint.id}' in this workspace`);
    }
    ctx.status = 204;
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
    if (!looksLikeId(ctx.params.deliveryId, 'evt')) {
      throw errors.notFound('delivery_not_found', `No delivery '${ctx.params.deliveryId}' in this webhook's log`);
    }
    ctx.status = 202;
    ctx.body = await redeliver(deps, endpoint, ctx.params.deliveryId);
  });

  router.post('/webhooks/:id/test', async (ctx) => {
    requireManage(ctx);
    const body = parse(TestWebhookBody, ctx.request.body);
    const endpoint = await visibleEndpoint(ctx, ctx.params.id);
    const event = body.event ?? (endpoint.events[0] as WebhookEventType);
    if (!endpoint.events.includes(event)) {
      throw errors.validation(`event: the webhook is not subscribed to '${event}'; it receives ${endpoint.events.join(', ')}`);
    }
    const { done, delivery } = await sendTest(deps, endpoint, event);
    ctx.status = done ? 200 : 202;
    ctx.body = delivery;
  });

  return router;
}
