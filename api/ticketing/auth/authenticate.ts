import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { requireCsrf, sessionFor, webSessionStore, type WebSession } from '../../kit/session';
import type { AuthContext } from '../access';
import { authServices, type Resolved } from './credentials';
import { gate, planLimits } from './rate-limit';

/** The value of `Authorization: Bearer <x>`; 401 when absent or of another scheme. */
export function bearer(ctx: Context): string {
  const header = ctx.get('Authorization');
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw errors.unauthorized(header ? 'Authorization must be "Bearer <access token or API key>"' : 'Missing Authorization header');
  }
  return match[1];
}

export function toAuthContext({ row, via, expiresAt }: Resolved): AuthContext {
  return {
    keyId: row.id,
    organizationId: row.organizationId,
    plan: row.plan,
    workspaceId: row.workspaceId,
    environment: row.environment,
    type: row.type,
    scopes: row.scopes,
    playerId: row.type === 'sdk' ? row.playerId : null,
    via,
    expiresAt,
  };
}

/**
 * A settings session (docs/settings.md, "Sessions") stands for its API key: the key is
 * resolved by id as a bearer key would be, so revocation and rate limits are the key's.
 * A key revoked since sign-in ends the session with the same 401.
 */
async function keyOfSession(deps: AppDeps, session: WebSession): Promise<Resolved> {
  try {
    return await authServices(deps).resolveKeyId(session.credentialId);
  } catch (err) {
    if ((err as { status?: number }).status === 401) await webSessionStore(deps).end(session);
    throw err;
  }
}

/**
 * Accepts an access token from POST /v1/auth/token or an API key (`sk_live_`,
 * `sk_test_`, `sdk_`) as the bearer value, or else a settings session, and sets `ctx.state.auth`.
 *
 * Hot path: a cached token or key costs two Map lookups and one Redis round trip, the
 * gate script that checks the revocation marker and takes a rate-limit slot together.
 * Its result waits on `ctx.state.rateLimit` for the rateLimit middleware, which sets
 * the headers (and the 429) so that the order of the two stays as the router lists it.
 */
export function authenticate(deps: AppDeps): Middleware {
  const services = authServices(deps);
  const limits = planLimits(deps.config);
  return async (ctx, next) => {
    const session = sessionFor(ctx, 'ticketing');
    const resolved = session ? await keyOfSession(deps, session) : await services.resolve(bearer(ctx));
    const result = await gate(deps.redis, resolved.row.id, limits[resolved.row.plan]);
    if (result.blocked) {
      services.forget(resolved.row.id);
      if (session) await webSessionStore(deps).end(session);
      throw errors.unauthorized('This API key has been revoked');
    }
    if (session) requireCsrf(ctx, session);
    ctx.state.auth = toAuthContext(resolved);
    ctx.state.rateLimit = result;
    if (result.allowed) services.keys.touch(resolved.row.id);
    await next();
  };
}
