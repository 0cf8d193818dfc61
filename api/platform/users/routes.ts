import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { listPlatformUsers } from '../../../db/repositories/platform-users';
import { activateInvitedUser } from '../../../domain/platform/activate-user';
import { changePlatformUser } from '../../../domain/platform/change-user';
import { isDomainError } from '../../../domain/errors';
import { nowOf, type AppDeps } from '../../deps';
import { failureThrottle } from '../../kit/auth/failure-throttle';
import { carriesSecret } from '../../kit/headers';
import { idempotency } from '../../kit/idempotency';
import { applyRateLimit } from '../../kit/rate-limit';
import { parse } from '../../kit/validation';
import { principalOf } from '../auth/middleware';
import { platformLimits } from '../auth/limits';
import { platformTokens } from '../auth/token-cache';
import { offsetAndLimit, platformList } from '../paging';
import { presentToken } from '../tokens/presenters';
import { deactivate, inviteUser, reactivate } from './gateway';
import { presentUser } from './presenters';
import { ActivateUserRequest, ChangeUserRequest, InviteUserRequest, ListUsersQuery } from './schema';

/**
 * Users (docs/platform.md, "Users"): list, invite, activate (public: the link's token is
 * the credential; failures throttled per client address), change, deactivate, reactivate.
 */
export function platformUsersRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();
  const limits = platformLimits(deps);
  const failures = failureThrottle(deps.redis, (ip) => limits.bucket('platform-anonymous-ip', ip));
  // the public route's Idempotency-Key: scoped to the client's address, as the push API's public routes
  const publicIdem = idempotency(deps, { scopeOf: (ctx: Context) => `platform-ip:${ctx.ip}` });

  router.post('/users/activate', async (ctx, next) => failures.refuseIfBlocked(ctx.ip).then(next), publicIdem, async (ctx) => {
    const { token } = parse(ActivateUserRequest, ctx.request.body);
    const now = nowOf(deps);
    let activated;
    try {
      activated = await activateInvitedUser(deps.db, token, now);
    } catch (err) {
      if (isDomainError(err) && err.kind === 'invalid') applyRateLimit(ctx, await failures.recordFailure(ctx.ip));
      throw err;
    }
    ctx.status = 201;
    ctx.body = { user: presentUser(activated.user), token: { ...presentToken(activated.token, now), token: activated.secret } };
    carriesSecret(ctx);
  });

  router.get('/users', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(ListUsersQuery, ctx.query);
    // an organisation admin reaches every workspace of the organisation; anyone else their token's
    const reachable = caller.isOrgAdmin ? null : [caller.workspaceId];
    const workspaceIds = q.workspace_id ? (reachable && !reachable.includes(q.workspace_id) ? [] : [q.workspace_id]) : reachable;
    const { offset, limit } = offsetAndLimit(q);
    await platformTokens(deps).pendingTouches(); // this process's uses show in last_active_at
    const { rows, total } = await listPlatformUsers(deps.db, { organizationId: caller.organizationId, workspaceIds }, offset, limit);
    ctx.body = platformList(ctx, rows.map(presentUser), total, q);
  });

  router.post('/users/invite', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(InviteUserRequest, ctx.request.body);
    const { user } = await inviteUser(deps, caller, { email: body.email, name: body.name, role: body.role, workspaceId: body.workspace_id ?? caller.workspaceId });
    ctx.status = 201;
    ctx.body = presentUser(user);
  });

  router.patch('/users/:id', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(ChangeUserRequest, ctx.request.body);
    const { user, roleChanged } = await deps.db.transaction((m) =>
      changePlatformUser(m, caller, ctx.params.id, { name: body.name, role: body.role, now: nowOf(deps) }),
    );
    if (roleChanged) platformTokens(deps).forgetUser(user.id); // this process applies the new role at once
    ctx.body = presentUser(user);
  });

  router.delete('/users/:id', auth, async (ctx) => {
    const d = await deactivate(deps, principalOf(ctx), ctx.params.id);
    ctx.body = { ...presentUser(d.user), unassigned_tickets: d.openTickets };
  });

  router.post('/users/:id/reactivate', auth, async (ctx) => {
    ctx.body = presentUser(await reactivate(deps, principalOf(ctx), ctx.params.id));
  });

  return router;
}
