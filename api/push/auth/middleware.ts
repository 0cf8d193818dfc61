// Authentication of the push API (push.md §1): `Authorization: Bearer <access token>`
// for dashboard users, `Authorization: ApiKey <key>` for SDKs and servers (scoped to one
// app). The middleware also takes the request's slot in its rate-limit group, so every
// authenticated response carries X-RateLimit-*; a request without a usable credential is
// counted per client IP before its 401 (failed authentication is throttled per IP).
// Without an Authorization header a settings session's cookie stands for its user where
// the `user` scheme is accepted (docs/settings.md, "Sessions"), with the CSRF check on changes.
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { AppError, errors } from '../../kit/errors';
import { appSigningKeys } from '../../kit/auth/signing-keys';
import { failureThrottle } from '../../kit/auth/failure-throttle';
import { idempotency } from '../../kit/idempotency';
import { applyRateLimit, gate } from '../../kit/rate-limit';
import { isUuid } from '../../kit/uuid';
import { requireCsrf, sessionFor, webSessionStore } from '../../kit/session';
import { allowedUnless, visibleRow } from '../../kit/visible-row';
import { findPushApp } from '../../../db/repositories/push-apps';
import type { PushAppRecord } from '../../../domain/push/types';
import { findPushUserById, isPushTrialExpired } from '../../../db/repositories/push-users';
import { pushApiKeys, pushKeyRevokedMarker } from './api-key-cache';
import { pushLimits, type PushLimitGroup } from './limits';
import { verifyAccessToken } from './tokens';

export type PushPrincipal =
  | { kind: 'user'; userId: string; companyId: string; isSuperAdmin: boolean }
  | { kind: 'apiKey'; keyId: string; appId: string; companyId: string };

export type PushScheme = 'user' | 'apiKey';

export interface PushAuthOptions {
  /** the credentials this route accepts */
  schemes: PushScheme[];
  /**
   * The Limits table's group of the route: `push-devices-register`, `push-event-fire`,
   * `push-notifications-send` (per key); default `push-token` (300 a minute per token).
   */
  limit?: PushLimitGroup;
}

const MAX_CREDENTIAL_LENGTH = 4096;

function credentialOf(ctx: Context): { scheme: PushScheme; value: string } | null {
  const header = ctx.get('Authorization');
  if (!header || header.length > MAX_CREDENTIAL_LENGTH) return null;
  const m = /^(Bearer|ApiKey)\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  return { scheme: m[1].toLowerCase() === 'bearer' ? 'user' : 'apiKey', value: m[2] };
}

export const trialExpired = () => new AppError(403, 'TRIAL_EXPIRED', "The company's trial has ended; ask for an extension");

type Resolved = PushPrincipal & { trialExpired: boolean };

async function resolve(deps: AppDeps, scheme: PushScheme, value: string): Promise<Resolved | null> {
  if (scheme === 'user') {
    const claims = await verifyAccessToken(appSigningKeys(deps), value);
    if (!claims) return null;
    // read on every request: an operator's extension takes effect at once
    return { kind: 'user', ...claims, trialExpired: await isPushTrialExpired(deps.db, claims.companyId) };
  }
  // cached per process (api-key-cache.ts); revocation is the Redis marker the gate checks
  const keys = pushApiKeys(deps);
  const row = await keys.resolve(value);
  if (!row) return null;
  keys.touch(row.id);
  return { kind: 'apiKey', keyId: row.id, appId: row.appId, companyId: row.companyId, trialExpired: row.trialExpired };
}

/**
 * A settings session of a push user (docs/settings.md, "Sessions"): the user is read by
 * id on every request (a deleted account or one without a company ends the session).
 */
async function resolveSessionUser(deps: AppDeps, userId: string): Promise<Resolved | null> {
  const user = isUuid(userId) ? await findPushUserById(deps.db, userId) : null;
  if (!user?.companyId) return null;
  return { kind: 'user', userId: user.id, companyId: user.companyId, isSuperAdmin: user.isSuperAdmin, trialExpired: await isPushTrialExpired(deps.db, user.companyId) };
}

/**
 * Sets `ctx.state.principal`; 401 UNAUTHORIZED when no accepted credential is present
 * (a missing, malformed, unknown, expired or revoked one, or a scheme this route does
 * not take), 403 TRIAL_EXPIRED when the company's trial has ended (docs/push.md,
 * "Ownership"), 429 RATE_LIMITED when the caller's window is full. Then the kit's
 * Idempotency-Key handling for POSTs, scoped to the user or the key.
 */
export function pushAuth(deps: AppDeps, opts: PushAuthOptions): Middleware {
  const limits = pushLimits(deps);
  const group = opts.limit ?? 'push-token';
  // Idempotency-Key on every authenticated POST (docs/push.md), keyed per credential's owner.
  const idem = idempotency(deps, {
    scopeOf: (ctx) => {
      const p = ctx.state.principal as PushPrincipal;
      return p.kind === 'user' ? `push-user:${p.userId}` : `push-key:${p.keyId}`;
    },
  });
  // a failed authentication takes a slot of the client address's push-anonymous-ip window
  const failures = failureThrottle(deps.redis, (ip) => limits.bucket('push-anonymous-ip', ip));
  const refuse = async (ctx: Context) => applyRateLimit(ctx, await failures.recordFailure(ctx.ip));
  const sessions = webSessionStore(deps);
  return async (ctx, next) => {
    const cred = credentialOf(ctx);
    // without an Authorization header, a settings session stands for its user (the `user` scheme)
    const session = opts.schemes.includes('user') ? sessionFor(ctx, 'push') : null;
    const resolved = session
      ? await resolveSessionUser(deps, session.credentialId)
      : cred && opts.schemes.includes(cred.scheme)
        ? await resolve(deps, cred.scheme, cred.value)
        : null;
    if (!resolved) {
      if (session) await sessions.end(session);
      await refuse(ctx);
      if (cred && !opts.schemes.includes(cred.scheme)) {
        throw errors.unauthorized(
          opts.schemes.includes('user') ? 'This endpoint takes a user access token (Authorization: Bearer …)' : 'This endpoint takes an API key (Authorization: ApiKey …)',
        );
      }
      throw errors.unauthorized();
    }
    const { trialExpired: expired, ...principal } = resolved;
    const subject = principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.keyId}`;
    // an API key's slot and its revocation marker in one Redis round trip
    const bucket = principal.kind === 'apiKey' ? { ...limits.bucket(group, subject), blockedKey: pushKeyRevokedMarker(principal.keyId) } : limits.bucket(group, subject);
    const slot = await gate(deps.redis, bucket);
    if (slot.blocked) {
      // revoked (in this or another process): a failed authentication like any other
      await refuse(ctx);
      throw errors.unauthorized();
    }
    applyRateLimit(ctx, slot);
    if (session) requireCsrf(ctx, session);
    if (expired) throw trialExpired();
    ctx.state.principal = principal as PushPrincipal;
    await idem(ctx, next);
  };
}

/** The principal pushAuth set. */
export function principalOf(ctx: Context): PushPrincipal {
  const p = ctx.state.principal as PushPrincipal | undefined;
  if (!p) throw errors.unauthorized();
  return p;
}

/**
 * The app if the principal may use it. Another company's app and an unknown id are the
 * same 404 RESOURCE_NOT_FOUND (nobody learns which ids exist elsewhere); an API key of
 * another app of the same company is 403 FORBIDDEN (its scope is one app).
 */
export async function appFor(ctx: Context, deps: AppDeps, appId: string): Promise<PushAppRecord> {
  const principal = principalOf(ctx);
  const app = await visibleRow(
    isUuid(appId) ? findPushApp(deps.db, appId) : null,
    (row) => row.companyId === principal.companyId,
    () => errors.noSuch('app', appId),
  );
  if (principal.kind === 'apiKey' && principal.appId !== app.id) {
    throw errors.forbidden('This API key belongs to another app');
  }
  return app;
}

/**
 * A row of an app (a device, a segment) found by its id, if the principal may use that
 * app: a malformed or unknown id and a row of another company's app are the same 404
 * (`No <what> with id '<id>'`), never "exists elsewhere"; an API key of another app of the
 * company is appFor's 403.
 */
export async function appRowFor<R extends { appId: string }>(
  ctx: Context,
  deps: AppDeps,
  what: string,
  id: string,
  find: (id: string) => Promise<R | null>,
): Promise<R> {
  return visibleRow(
    isUuid(id) ? find(id) : null,
    (row) => allowedUnless(404, () => appFor(ctx, deps, row.appId)),
    () => errors.noSuch(what, id),
  );
}

/** Managing apps and keys needs a user: an API key (scoped to its app's use) gets 403. */
export function requireUser(ctx: Context): Extract<PushPrincipal, { kind: 'user' }> {
  const p = principalOf(ctx);
  if (p.kind !== 'user') throw errors.forbidden('This operation needs a user access token, not an API key');
  return p;
}
