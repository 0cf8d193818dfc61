import Router from '@koa/router';
import type { Middleware } from 'koa';
import { nowOf, type AppDeps } from '../../deps';
import { carriesSecret } from '../../kit/headers';
import type { IdempotencyState } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { listPlatformTokens } from '../../../db/repositories/platform-tokens';
import { hasRole } from '../../../domain/platform/access.rules';
import { revokePlatformToken } from '../../../domain/platform/revoke-token';
import { principalOf } from '../auth/middleware';
import { platformTokens } from '../auth/token-cache';
import { offsetAndLimit, platformList } from '../paging';
import { createToken } from './gateway';
import { presentToken } from './presenters';
import { CreateTokenRequest, ListTokensQuery } from './schema';

/** Tokens: create for yourself (secret once), list, revoke (docs/platform.md, "Tokens"). */
export function platformTokensRouter(deps: AppDeps, auth: Middleware): Router {
  const router = new Router();

  router.post('/auth/tokens', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const body = parse(CreateTokenRequest, ctx.request.body);
    const now = nowOf(deps);
    const input = { name: body.name, workspaceId: body.workspace_id, environment: body.environment, expiresInDays: body.expires_in_days ?? null, now };
    const { token, secret } = await createToken(deps, caller, input, ctx.state.idempotency as IdempotencyState | undefined);
    ctx.status = 201;
    ctx.body = { ...presentToken(token, now), token: secret };
    carriesSecret(ctx);
  });

  router.get('/auth/tokens', auth, async (ctx) => {
    const caller = principalOf(ctx);
    const q = parse(ListTokensQuery, ctx.query);
    // everyone lists their own tokens; an admin also every token of the workspaces they
    // reach (their token's; an organisation admin's: the whole organisation's)
    const workspaceIds = caller.isOrgAdmin ? null : hasRole(caller, 'admin') ? [caller.workspaceId] : [];
    const { offset, limit } = offsetAndLimit(q);
    await platformTokens(deps).pendingTouches(); // this process's uses show in last_used_at
    const { rows, total } = await listPlatformTokens(deps.db, { organizationId: caller.organizationId, workspaceIds, ownerId: caller.userId, workspaceId: q.workspace_id ?? null }, offset, limit);
    const now = nowOf(deps);
    ctx.body = platformList(ctx, rows.map((t) => presentToken(t, now)), total, q);
  });

  router.delete('/auth/tokens/:id', auth, async (ctx) => {
    await revokePlatformToken(deps.db, principalOf(ctx), ctx.params.id, (ids) => platformTokens(deps).revoke(ids), nowOf(deps));
    ctx.status = 204;
  });

  return router;
}
