import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { carriesSecret } from '../../kit/headers';
import { idempotency } from '../../kit/idempotency';
import { parse } from '../../kit/validation';
import { hashApiKey, keyKindOf } from '../../../lib/api-keys';
import { createApiKey } from '../../../domain/auth/create-api-key';
import { revokeApiKey } from '../../../domain/auth/revoke-api-key';
import { auth, requireScope, type AuthContext } from '../access';
import { authServices, type AuthServices } from './credentials';
import type { KeyReach } from '../../../db/repositories/api-keys';
import { failureThrottle } from '../../kit/auth/failure-throttle';
import { presentKey } from './presenters';
import { applyRateLimit } from '../../kit/rate-limit';
import { gate, planLimits } from './rate-limit';
import { CreateApiKeyRequest, KeyParams, OrganizationParams, TokenRequest, type CreateApiKeyBody } from './schema';
import { issueToken } from './tokens';

const failureLog = (ip: string) => `auth:ip:{${ip}}:failures`;

/** Routes that need no credential: the token exchange and the JWKS. Mounted under /v1. */
export function publicAuthRouter(deps: AppDeps): Router {
  const services = authServices(deps);
  const limits = planLimits(deps.config);
  const router = new Router();

  // wrong keys per client address: a rolling 60 s window of `authFailuresPerIp` failures
  const throttle = failureThrottle(deps.redis, (ip) => ({ key: failureLog(ip), limit: deps.config.authFailuresPerIp }));
  const refuse = async (ip: string): Promise<never> => {
    await throttle.recordFailure(ip);
    throw errors.unauthorized('Invalid API key for this organization');
  };

  // Public: Idempotency-Key is kept per caller address (there is no credential yet).
  router.post('/auth/token', idempotency(deps, { scopeOf: (ctx) => `ip:${ctx.ip}` }), async (ctx) => {
    const body = parse(TokenRequest, ctx.request.body);
    if (keyKindOf(body.apiKey) === 'sdk_') {
      throw errors.validation('apiKey: sdk keys cannot be exchanged for access tokens; send them directly as the Bearer value');
    }
    // An address that failed too often is refused before its key is even looked at.
    await throttle.refuseIfBlocked(ctx.ip);
    // One path for every key, well-formed or not: hash, look up, compare; one answer for
    // unknown, malformed, revoked and other-organization keys: nothing to probe.
    const row = await services.keyByHash(hashApiKey(body.apiKey));
    if (!row || row.revokedAt || row.type !== 'server' || row.organizationId !== body.organizationId) return refuse(ctx.ip);
    // A token exchange is a request made with the key: it counts against its limit.
    const result = await gate(deps.redis, row.id, limits[row.plan]);
    if (result.blocked) {
      services.forget(row.id);
      return refuse(ctx.ip);
    }
    applyRateLimit(ctx, result);
    services.keys.touch(row.id);
    carriesSecret(ctx);
    ctx.body = await issueToken(services.signing, row.id, row.organizationId);
  });

  router.get('/.well-known/jwks.json', async (ctx) => {
    const { jwks } = await services.signing.current();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = { keys: jwks };
  });

  return router;
}

/**
 * The caller's reach for key management: `admin:all`, its own organization only (403
 * otherwise), and, so that a sandbox key never touches production, test keys manage
 * test keys only; a workspace-bound admin key manages the keys of its workspace.
 */
function keyReach(ctx: Context): { caller: AuthContext; reach: KeyReach } {
  const caller = requireScope(ctx, 'admin:all');
  const { organization_id } = parse(OrganizationParams, ctx.params);
  if (organization_id !== caller.organizationId) {
    throw errors.forbidden(`This API key has no access to organization '${organization_id}'`);
  }
  return {
    caller,
    reach: {
      organizationId: caller.organizationId,
      environment: caller.environment === 'test' ? 'test' : null,
      workspaceId: caller.workspaceId,
    },
  };
}

async function createKey(deps: AppDeps, services: AuthServices, caller: AuthContext, body: CreateApiKeyBody) {
  const { row, key } = await createApiKey(deps.db, caller, body);
  deps.logger.info({ keyId: row.id, organizationId: row.organizationId, createdBy: caller.keyId }, 'API key created');
  return { ...presentKey(row), key };
}

/** The authenticated auth routes: who am I, and API key management. */
export function apiKeysRouter(deps: AppDeps): Router {
  const services = authServices(deps);
  const router = new Router();

  router.get('/auth/me', async (ctx) => {
    const a = auth(ctx);
    // this very request may have just recorded the first use; show it
    await services.keys.pendingTouch(a.keyId);
    const row = await services.repo.findById(a.keyId);
    if (!row) throw errors.unauthorized();
    ctx.body = presentKey(row);
  });

  router.get('/organizations/:organization_id/api-keys', async (ctx) => {
    const { reach } = keyReach(ctx);
    ctx.body = { data: (await services.repo.list(reach)).map(presentKey) };
  });

  router.post('/organizations/:organization_id/api-keys', async (ctx) => {
    const { caller } = keyReach(ctx);
    const body = parse(CreateApiKeyRequest, ctx.request.body);
    // The secret is in the answer: no-store, and sealed in the idempotency store.
    carriesSecret(ctx);
    ctx.status = 201;
    ctx.body = await createKey(deps, services, caller, body);
  });

  router.delete('/organizations/:organization_id/api-keys/:key_id', async (ctx) => {
    const { caller, reach } = keyReach(ctx);
    const { key_id } = parse(KeyParams, ctx.params);
    // api_key_not_found for a key outside the caller's reach
    const row = await revokeApiKey(deps.db, reach, key_id, caller.keyId);
    try {
      await services.keys.markRevoked([row.id]);
    } catch {
      // Recorded in Postgres, but other processes may serve the key from cache for up to
      // 30 s; DELETE is idempotent, so the client can simply retry.
      throw errors.unavailable('The key is revoked but the revocation could not be propagated yet; retry the request');
    }
    services.forget(row.id);
    deps.logger.info({ keyId: row.id, revokedBy: caller.keyId }, 'API key revoked');
    ctx.status = 204;
  });

  return router;
}
