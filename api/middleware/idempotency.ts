import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  expireIdempotencyKey,
  findIdempotencyKey,
  forgetIdempotencyKey,
} from '../../db/repositories/idempotency-keys';
import { errors } from '../errors';

const TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` on any POST: the same key with the same body within 24 h replays
 * the first response (with `Idempotent-Replayed: true`); the same key with another
 * body is a 409. Keys are per API key. Only successful responses are remembered, so a
 * request that failed can be retried with the same key.
 */
export function idempotency(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (ctx.method !== 'POST' || !key) return next();
    if (key.length > MAX_KEY_LENGTH) throw errors.validation(`Idempotency-Key: at most ${MAX_KEY_LENGTH} characters`);
    const keyId: string = ctx.state.auth.keyId;
    const rawBody = (ctx.request as any).rawBody ?? '';
    const requestHash = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${rawBody}`).digest('hex');

    await expireIdempotencyKey(deps.db, keyId, key, TTL_HOURS);
    const claimed = await claimIdempotencyKey(deps.db, keyId, key, requestHash);
    if (!claimed) {
      const prior = await findIdempotencyKey(deps.db, keyId, key);
      if (!prior || prior.requestHash !== requestHash) {
        throw errors.conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request');
      }
      if (prior.statusCode === null) {
        throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
      }
      ctx.status = prior.statusCode;
      ctx.body = prior.response ?? undefined;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }

    const forget = () =>
      forgetIdempotencyKey(deps.db, keyId, key).catch(() => undefined);
    try {
      await next();
    } catch (err) {
      await forget();
      throw err;
    }
    if (ctx.status >= 200 && ctx.status < 300) {
      await completeIdempotencyKey(deps.db, keyId, key, { statusCode: ctx.status, body: ctx.body });
    } else {
      await forget();
    }
  };
}
