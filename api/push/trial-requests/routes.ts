// Trial onboarding (docs/trial-onboarding.md): the public request, and the super-admin's
// list and actions. Thin: the submission is domain/onboarding/submit-trial-request.ts,
// every action an Update through the gateway.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { findPushUserById } from '../../../db/repositories/push-users';
import { listTrialRequests } from '../../../db/repositories/push-trial-requests';
import { submitTrialRequest } from '../../../domain/onboarding/submit-trial-request';
import {
  approveUpdate,
  extendUpdate,
  rejectUpdate,
  resendSetupUpdate,
  setupLinkUpdate,
  trialRequestWorkflowStart,
} from '../../../workflows/onboarding/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { carriesSecret } from '../../kit/headers';
import { idempotency } from '../../kit/idempotency';
import { offsetOf, pageOf } from '../../kit/pagination';
import { applyRateLimit, gate } from '../../kit/rate-limit';
import { parse } from '../../kit/validation';
import { principalOf, pushAuth, type PushPrincipal } from '../auth';
import { pushLimits } from '../auth/limits';
import { act, setupUrlFor, storedRequest } from './gateway';
import { presentAdminView, presentSummary } from './presenters';
import { ApproveBody, ExtendBody, ListTrialRequestsQuery, RejectBody, SubmitTrialRequestBody, TrialRequestIdParams } from './schema';

export function pushTrialRequestsRouter(deps: AppDeps): Router {
  const router = new Router();
  const limits = pushLimits(deps);
  const perIp = async (ctx: Context, next: Next) => {
    applyRateLimit(ctx, await gate(deps.redis, limits.bucket('push-trial-ip', ctx.ip)));
    await next();
  };
  const publicIdem = idempotency(deps, { scopeOf: (ctx) => `push-ip:${ctx.ip}` });
  // the role is read on every call: a user who loses it is refused at once
  const superAdmin = async (ctx: Context, next: Next) => {
    const p = principalOf(ctx);
    const user = p.kind === 'user' ? await findPushUserById(deps.db, p.userId) : null;
    if (!user?.isSuperAdmin) throw errors.forbidden('Trial administration needs the super-admin role');
    await next();
  };
  const operator = [pushAuth(deps, { schemes: ['user'] }), superAdmin];
  const requestOf = (ctx: Context) => storedRequest(deps, parse(TrialRequestIdParams, ctx.params).id);
  // the operator routes take user tokens only (pushAuth above): the actor is that user
  const actorOf = (ctx: Context) => (principalOf(ctx) as Extract<PushPrincipal, { kind: 'user' }>).userId;

  router.post('/trial-requests', perIp, publicIdem, async (ctx) => {
    const body = parse(SubmitTrialRequestBody, ctx.request.body);
    const { request, created } = await submitTrialRequest(deps.db, body, trialRequestWorkflowStart(deps.config.temporalSearchAttributes));
    ctx.status = created ? 201 : 200;
    ctx.body = presentSummary(request);
  });

  router.get('/admin/trial-requests', ...operator, async (ctx) => {
    const q = parse(ListTrialRequestsQuery, ctx.query);
    const { items, total } = await listTrialRequests(deps.db, q.status ?? null, offsetOf(q), q.pageSize);
    ctx.body = pageOf(items.map(presentAdminView), total, q);
  });

  router.get('/admin/trial-requests/:id', ...operator, async (ctx) => {
    ctx.body = presentAdminView(await requestOf(ctx));
  });

  router.post('/admin/trial-requests/:id/approve', ...operator, async (ctx) => {
    const r = await requestOf(ctx);
    const body = parse(ApproveBody, ctx.request.body);
    await act(deps, r.id, approveUpdate, [{ planSlug: body.planSlug, trialDays: body.trialDays, adminNotes: body.adminNotes ?? null, actorId: actorOf(ctx) }]);
    ctx.body = presentAdminView(await storedRequest(deps, r.id));
  });

  router.post('/admin/trial-requests/:id/reject', ...operator, async (ctx) => {
    const r = await requestOf(ctx);
    const body = parse(RejectBody, ctx.request.body);
    await act(deps, r.id, rejectUpdate, [{ adminNotes: body.adminNotes, actorId: actorOf(ctx) }]);
    ctx.body = presentAdminView(await storedRequest(deps, r.id));
  });

  router.post('/admin/trial-requests/:id/setup-link', ...operator, async (ctx) => {
    const r = await requestOf(ctx);
    const { tokenId, expiresAt } = await act(deps, r.id, setupLinkUpdate, [{ actorId: actorOf(ctx) }]);
    ctx.body = { setupUrl: setupUrlFor(deps, tokenId), expiresAt };
    carriesSecret(ctx);
  });

  router.post('/admin/trial-requests/:id/resend-setup', ...operator, async (ctx) => {
    const r = await requestOf(ctx);
    await act(deps, r.id, resendSetupUpdate, [{ actorId: actorOf(ctx) }]);
    ctx.status = 202;
    ctx.body = presentAdminView(await storedRequest(deps, r.id));
  });

  router.post('/admin/trial-requests/:id/extend', ...operator, async (ctx) => {
    const r = await requestOf(ctx);
    const body = parse(ExtendBody, ctx.request.body);
    await act(deps, r.id, extendUpdate, [{ days: body.days, actorId: actorOf(ctx) }]);
    ctx.body = presentAdminView(await storedRequest(deps, r.id));
  });

  return router;
}
