import { createHash } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { masterKey } from '../../lib/crypto/master-key';
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  expireIdempotencyKey,
  findIdempotencyKey,
  leaseSecondsLeft,
  releaseIdempotencyKey,
} from '../../db/repositories/idempotency-keys';
import type { AppDeps } from '../deps';
import { errors } from './errors';
import { rawBody } from './input-limits';

const TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;
/**
 * How long a request holds its key (docs/api-kit.md: "tens of seconds"). Every request is
 * answered within 10 s, so a lease that lapses belongs to a request that died.
 */
export const idempotencyLeaseSeconds = () => Number(process.env.IDEMPOTENCY_LEASE_SECONDS ?? 20);

/** `ctx.state.idempotency` while a keyed request runs. */
export interface IdempotencyState {
  scope: string;
  key: string;
  token: string;
  /** what an earlier attempt under this key created; the route replays it */
  resourceId: string | null;
}

export interface IdempotencyOptions {
  /**
   * Whose keys these are: a client's keys never meet another client's. Authenticated
   * routes use the credential (the API key id); public ones the caller's address.
   */
  scopeOf(ctx: Context): string;
}

/** What the `response` column holds for a reply that carried a secret: only the sealed JSON
 * (`$`: no response of ours has such a field). */
interface SealedResponse {
  $sealed: string;
}
const isSealed = (v: unknown): v is SealedResponse => typeof (v as SealedResponse | null)?.$sealed === 'string';

/**
 * `Idempotency-Key` on any POST (docs/api-kit.md, "Idempotency-Key"): the same key with the
 * same body within 24 h replays the first response (with `Idempotent-Replayed: true`);
 * the same key with another body, or while the first request still runs, is a 409.
 * Only 2xx responses are remembered, so a request that failed can be retried with the
 * same key. A response that carries a secret (carriesSecret) is stored sealed with the
 * secret box, bound to its scope and key: whoever reads the table learns nothing, and
 * the client that lost the answer to a network error still gets its secret back.
 */
export function idempotency(deps: AppDeps, opts: IdempotencyOptions): Middleware {
  const aad = (scope: string, key: string) => `idempotency:${scope}:${key}`;
  // Only a POST with the header does any work; every other request goes straight on
  // without a promise of this middleware's own (reads pass here on every request).
  return (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    return ctx.method !== 'POST' || !key ? next() : withKey(ctx, next, key);
  };

  async function withKey(ctx: Context, next: Next, key: string) {
    if (key.length > MAX_KEY_LENGTH || key.includes('\u0000')) {
      throw errors.validation(`Idempotency-Key: at most ${MAX_KEY_LENGTH} characters, no NUL`);
    }
    const scope = opts.scopeOf(ctx);
    const requestHash = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${rawBody(ctx)}`).digest('hex');

    await expireIdempotencyKey(deps.db, scope, key, TTL_HOURS);
    const claim = await claimIdempotencyKey(deps.db, scope, key, requestHash, idempotencyLeaseSeconds());
    if (!claim) {
      const prior = await findIdempotencyKey(deps.db, scope, key);
      if (!prior || prior.requestHash !== requestHash) {
        throw errors.conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request');
      }
      if (prior.statusCode === null) {
        const err = errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
        err.headers['Retry-After'] = String(leaseSecondsLeft(prior));
        throw err;
      }
      let body: unknown = prior.response ?? undefined;
      if (isSealed(body)) {
        body = JSON.parse(decryptSecret(masterKey(deps.config), body.$sealed, aad(scope, key)));
        ctx.set('Cache-Control', 'no-store');
      }
      ctx.status = prior.statusCode;
      ctx.body = body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }

    ctx.state.idempotency = { scope, key, token: claim.token, resourceId: claim.resourceId } satisfies IdempotencyState;
    // if even this fails (the database is down), the lease lapses by itself
    const forget = () => releaseIdempotencyKey(deps.db, scope, key, claim.token).catch(() => undefined);
    try {
      await next();
    } catch (err) {
      await forget();
      throw err;
    }
    if (ctx.status >= 200 && ctx.status < 300) {
      let stored: unknown = ctx.body;
      if (ctx.state.carriesSecret && stored !== undefined) {
        stored = { $sealed: encryptSecret(masterKey(deps.config), JSON.stringify(stored), aad(scope, key)) } satisfies SealedResponse;
      }
      await completeIdempotencyKey(deps.db, scope, key, { statusCode: ctx.status, body: stored });
    } else {
      await forget();
    }
  }
}
