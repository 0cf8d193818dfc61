import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
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

    await deps.db.query(
      `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND created_at < now() - interval '${TTL_HOURS} hours'`,
      [keyId, key],
    );
    const claimed = await deps.db.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING key`,
      [keyId, key, requestHash],
    );
    if (!claimed.rowCount) {
      const { rows } = await deps.db.query(
        'SELECT request_hash, status_code, response FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
        [keyId, key],
      );
      const prior = rows[0];
      if (!prior || prior.request_hash !== requestHash) {
        throw errors.conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request');
      }
      if (prior.status_code === null) {
        throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
      }
      ctx.status = prior.status_code;
      ctx.body = prior.response ?? undefined;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }

    const forget = () =>
      deps.db.query('DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2', [keyId, key]).catch(() => undefined);
    try {
      await next();
    } catch (err) {
      await forget();
      throw err;
    }
    if (ctx.status >= 200 && ctx.status < 300) {
      await deps.db.query(
        'UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE api_key_id = $1 AND key = $2',
        [keyId, key, ctx.status, ctx.body === undefined ? null : JSON.stringify(ctx.body)],
      );
    } else {
      await forget();
    }
  };
}
