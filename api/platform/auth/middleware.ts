// Authentication of the platform API (the platform spec, "Authentication"):
// `Authorization: Bearer service_live_…|service_test_…`. A token is scoped to one workspace
// and acts with its creator's role as it is now (an organisation admin above every role).
// The middleware also takes the request's slot: reads (GET, HEAD) 120 and writes 60 a
// minute per token (limits.ts), so every authenticated answer carries X-RateLimit-*; a
// request without a usable token is counted per client IP before its 401. Then the kit's
// Idempotency-Key handling for POSTs, scoped to the token. Without an Authorization header a
// settings session's cookie stands for its token (docs/settings.md, "Sessions"), with the
// CSRF check on every change.
import type { Context, Middleware } from 'koa';
import type { PlatformCaller } from '../../../domain/platform/access.rules';
import type { PlatformEnvironment, PlatformTokenPrincipalRow } from '../../../domain/platform/types';
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { failureThrottle } from '../../kit/auth/failure-throttle';
import { idempotency } from '../../kit/idempotency';
import { applyRateLimit, gate } from '../../kit/rate-limit';
import { requireCsrf, sessionFor, webSessionStore } from '../../kit/session';
import { platformLimits } from './limits';
import { platformTokenRevokedMarker, platformTokens } from './token-cache';

/** Who is calling: the token, its creator (role now), its workspace and environment. */
export interface PlatformPrincipal extends PlatformCaller {
  tokenId: string;
  environment: PlatformEnvironment;
}

const MAX_CREDENTIAL_LENGTH = 4096;

function bearerOf(ctx: Context): string | null {
  const header = ctx.get('Authorization');
  if (!header || header.length > MAX_CREDENTIAL_LENGTH) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * Whether a token may be used at `now`: unrevoked (the query's), unexpired at the exact
 * instant (expires_at is the first refused millisecond) and its creator active.
 */
export function usable(row: PlatformTokenPrincipalRow, now: Date): boolean {
  if (row.revokedAt) return false;
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= now.getTime()) return false;
  return row.userStatus === 'active';
}

/**
 * A workspace in its deletion grace is disabled: its tokens still read workspaces and may
 * restore theirs (an organisation admin's), everything else is a 403 until it is restored.
 */
const SERVED_WHILE_DISABLED = /^\/platform\/v1\/workspaces(\/|$)/;

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Sets `ctx.state.principal`; 401 unauthorized for a missing, malformed, unknown, expired
 * or revoked token (one answer for all), 429 rate_limited when the token's window of the
 * request's kind is full.
 */
export function platformAuth(deps: AppDeps): Middleware {
  const limits = platformLimits(deps);
  const tokens = platformTokens(deps);
  const idem = idempotency(deps, { scopeOf: (ctx) => `platform-token:${principalOf(ctx).tokenId}` });
  const failures = failureThrottle(deps.redis, (ip) => limits.bucket('platform-anonymous-ip', ip));
  const sessions = webSessionStore(deps);
  const refuse = async (ctx: Context): Promise<never> => {
    // a settings session whose token is no longer usable is over (docs/settings.md, "Sessions")
    const session = sessionFor(ctx, 'platform');
    if (session) await sessions.end(session);
    applyRateLimit(ctx, await failures.recordFailure(ctx.ip));
    throw errors.unauthorized('Missing, invalid, expired or revoked token (Authorization: Bearer service_live_… or service_test_…)');
  };
  return async (ctx, next) => {
    // the bearer token, or else a settings session's token (by its id, through the same cache and checks)
    const session = sessionFor(ctx, 'platform');
    const secret = bearerOf(ctx);
    const row = session ? await tokens.resolveId(session.credentialId) : secret ? await tokens.resolve(secret) : null;
    if (!row || !usable(row, nowOf(deps))) return refuse(ctx);
    const read = isRead(ctx.method);
    const group = read ? 'platform-read' : 'platform-write';
    const bucket = {
      ...limits.bucket(group, `token:${row.id}`, read ? row.readLimit : row.writeLimit),
      blockedKey: platformTokenRevokedMarker(row.id),
    };
    const slot = await gate(deps.redis, bucket);
    if (slot.blocked) return refuse(ctx); // revoked in this or another process
    applyRateLimit(ctx, slot);
    if (session) requireCsrf(ctx, session);
    tokens.touch(row.id);
    const principal: PlatformPrincipal = {
      tokenId: row.id,
      organizationId: row.organizationId,
      workspaceId: row.workspaceId,
      userId: row.userId,
      role: row.role,
      isOrgAdmin: row.isOrgAdmin,
      environment: row.environment,
    };
    ctx.state.principal = principal;
    if (row.workspaceStatus !== 'active' && !SERVED_WHILE_DISABLED.test(ctx.path)) {
      throw errors.forbidden(`Workspace '${row.workspaceId}' is scheduled for deletion; restore it with POST /platform/v1/workspaces/${row.workspaceId}/restore`);
    }
    await idem(ctx, next);
  };
}

/** The principal platformAuth set. */
export function principalOf(ctx: Context): PlatformPrincipal {
  const p = ctx.state.principal as PlatformPrincipal | undefined;
  if (!p) throw errors.unauthorized();
  return p;
}
