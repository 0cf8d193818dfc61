import Router from '@koa/router';
import type { Middleware } from 'koa';
import { findPlatformWorkspace } from '../../../db/repositories/platform-workspaces';
import { attemptsOf, offsetPageOfDeliveries } from '../../../db/repositories/webhook-delivery-log';
import { findEndpoint, pageOfEndpoints, type EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import { hasRole, reachesWorkspace } from '../../../domain/platform/access.rules';
import { platformForbidden, platformNotFound } from '../../../domain/platform/errors';
import type { PlatformWorkspaceRecord } from '../../../domain/platform/types';
import type { AppDeps } from '../../deps';
import { iso } from '../../kit/dates';
import { looksLikeId } from '../../kit/fields';
import { carriesSecret } from '../../kit/headers';
import { parse } from '../../kit/validation';
import { visibleRow } from '../../kit/visible-row';
import { principalOf, type PlatformPrincipal } from '../auth/middleware';
import { offsetAndLimit, platformList } from '../paging';
import { createWebhook, deleteWebhook, patchWebhook, redeliver, rotateWebhookSecret } from './gateway';
import { presentDelivery, presentWebhook } from './presenters';
import { CreateWebhookRequest, DeliveriesQuery, ListWebhooksQuery, PatchWebhookRequest } from './schema';

/**
 * Webhook endpoints of platform workspaces (docs/platform.md, "Webhooks"): register (the
 * secret once), list, read, change (pause and resume), delete, rotate the secret, the
 * delivery log and redelivery. Admins only: where a workspace's events go is its
 * settings. The role is checked before anything is looked up, so an agent learns nothing;
 * an endpoint of a workspace out of the token's reach is the 404 of a missing one.
 */
export function platformWebhooksRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();

  const adminOf = (ctx: Parameters<typeof principalOf>[0]): PlatformPrincipal => {
    const caller = principalOf(ctx);
    if (!hasRole(caller, 'admin')) throw platformForbidden('Only an admin may manage webhook endpoints');
    return caller;
  };
  /** The workspace `id` (default the token's) if the caller reaches it, else 404. */
  const workspaceOf = (caller: PlatformPrincipal, id: string | undefined): Promise<PlatformWorkspaceRecord> => {
    const workspaceId = id ?? caller.workspaceId;
    return visibleRow(findPlatformWorkspace(deps.db, workspaceId), (w) => reachesWorkspace(caller, w), () => platformNotFound('workspace', workspaceId));
  };
  /**
   * A live platform endpoint of the caller's environment in a workspace the caller reaches,
   * else 404 (a /v1 endpoint's id, or the other environment's, too).
   */
  const webhookOf = (caller: PlatformPrincipal, id: string): Promise<EndpointRecord> =>
    visibleRow(
      looksLikeId(id, 'wh') ? findEndpoint(deps.db, id) : null,
      async (e) => {
        if (e.api !== 'platform' || e.environment !== caller.environment) return false;
        const w = await findPlatformWorkspace(deps.db, e.workspaceId);
        return w !== null && reachesWorkspace(caller, w);
      },
      () => platformNotFound('webhook', id),
    );

  router.post('/webhooks', auth, async (ctx) => {
    const caller = adminOf(ctx);
    const body = parse(CreateWebhookRequest, ctx.request.body);
    const workspace = await workspaceOf(caller, body.workspace_id);
    const { endpoint, secret } = await createWebhook(deps, { workspaceId: workspace.id, environment: caller.environment, url: body.url, events: body.events, description: body.description, active: body.active });
    const { created_at, updated_at, ...rest } = presentWebhook(endpoint);
    // the signing secret is in the answer: no-store, and sealed in the idempotency store
    carriesSecret(ctx);
    ctx.status = 201;
    ctx.body = { ...rest, secret, created_at, updated_at };
  });

  router.get('/webhooks', auth, async (ctx) => {
    const caller = adminOf(ctx);
    const q = parse(ListWebhooksQuery, ctx.query);
    const workspace = await workspaceOf(caller, q.workspace_id);
    const { rows, total } = await pageOfEndpoints(deps.db, { api: 'platform', workspaceId: workspace.id, environment: caller.environment, ...offsetAndLimit(q) });
    ctx.body = platformList(ctx, rows.map(presentWebhook), total, q);
  });

  router.get('/webhooks/:id', auth, async (ctx) => {
    ctx.body = presentWebhook(await webhookOf(adminOf(ctx), ctx.params.id));
  });

  router.patch('/webhooks/:id', auth, async (ctx) => {
    const caller = adminOf(ctx);
    const body = parse(PatchWebhookRequest, ctx.request.body);
    const endpoint = await webhookOf(caller, ctx.params.id);
    ctx.body = presentWebhook(await patchWebhook(deps, endpoint.id, body));
  });

  router.delete('/webhooks/:id', auth, async (ctx) => {
    const endpoint = await webhookOf(adminOf(ctx), ctx.params.id);
    await deleteWebhook(deps, endpoint.id);
    ctx.status = 204;
  });

  router.post('/webhooks/:id/rotate-secret', auth, async (ctx) => {
    const endpoint = await webhookOf(adminOf(ctx), ctx.params.id);
    const { endpoint: rotated, secret, previousExpiresAt } = await rotateWebhookSecret(deps, endpoint.id);
    const { created_at, updated_at, ...rest } = presentWebhook(rotated);
    carriesSecret(ctx);
    ctx.body = { ...rest, secret, previous_secret_expires_at: iso(previousExpiresAt), created_at, updated_at };
  });

  router.get('/webhooks/:id/deliveries', auth, async (ctx) => {
    const caller = adminOf(ctx);
    const q = parse(DeliveriesQuery, ctx.query);
    const endpoint = await webhookOf(caller, ctx.params.id);
    const { rows, total } = await offsetPageOfDeliveries(deps.db, endpoint.id, { status: q.status ?? null, ...offsetAndLimit(q) });
    const attempts = await attemptsOf(deps.db, rows.map((r) => r.id));
    ctx.body = platformList(ctx, rows.map((r) => presentDelivery(r, attempts.get(r.id) ?? [])), total, q);
  });

  router.post('/webhooks/:id/deliveries/:delivery_id/redeliver', auth, async (ctx) => {
    const endpoint = await webhookOf(adminOf(ctx), ctx.params.id);
    if (!looksLikeId(ctx.params.delivery_id, 'evt')) throw platformNotFound('delivery', ctx.params.delivery_id);
    ctx.status = 202;
    ctx.body = await redeliver(deps, endpoint, ctx.params.delivery_id);
  });

  return router;
}
