import type { Config } from '../../../lib/config';
import type Redis from 'ioredis';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import { applyRateLimit, gate as kitGate, withOverrides, type GateResult } from '../../kit/rate-limit';
import { auth } from '../access';
import type { Plan } from '../../../db/entities/organization.entity';

// The hash tag `{keyId}` keeps a key's rate-limit log and its revocation marker (the kit's
// credential cache sets it) in one cluster slot, which the gate script needs on Redis Cluster.
export const rateLimitLog = (keyId: string) => `auth:{${keyId}}:rl`;
export const revokedMarker = (keyId: string) => `auth:{${keyId}}:revoked`;

/** Requests per rolling 60 s window (the kit's default window), per API key, from the spec's Limits table. */
export const PLAN_LIMITS: Record<Plan, number> = { starter: 120, growth: 600, scale: 3000 };

/** The plan limits with `RATE_LIMITS` overrides by plan name (benchmarks and tests only). */
export function planLimits(config: Config): Record<Plan, number> {
  return withOverrides(PLAN_LIMITS, config.rateLimits);
}

/**
 * The /v1 bucket: one per API key (tokens count against their key), its plan's limit,
 * with the key's revocation marker checked in the same Redis round trip.
 */
export async function gate(redis: Redis, keyId: string, limit: number): Promise<GateResult> {
  return kitGate(redis, { key: rateLimitLog(keyId), blockedKey: revokedMarker(keyId), limit });
}

/**
 * Rate limit per API key by the organization's plan. authenticate() already ran the
 * gate (the revocation check needs the same round trip) and left its result on
 * `ctx.state.rateLimit`; this middleware only runs it itself when used without it.
 */
export function rateLimit(deps: AppDeps): Middleware {
  const limits = planLimits(deps.config);
  const gated = async (ctx: Context, next: Next) => {
    const a = auth(ctx);
    const result = await gate(deps.redis, a.keyId, limits[a.plan]);
    if (result.blocked) throw errors.unauthorized('This API key has been revoked');
    applyRateLimit(ctx, result);
    await next();
  };
  // the usual case (authenticate's result at hand) takes no promise of its own
  return (ctx, next) => {
    const result = ctx.state.rateLimit as GateResult | undefined;
    if (!result) return gated(ctx, next);
    applyRateLimit(ctx, result);
    return next();
  };
}
