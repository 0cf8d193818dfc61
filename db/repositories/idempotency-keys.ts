// idempotency_keys: the first response to a POST with an Idempotency-Key, per API key.
import { randomUUID } from 'node:crypto';
import { IdempotencyKey } from '../entities';
import { managerOf, sql, type Executor } from '../db';

/** Forgets the key if its first request is older than `ttlHours` (the key may be reused then). */
export async function expireIdempotencyKey(executor: Executor, apiKeyId: string, key: string, ttlHours: number): Promise<void> {
  await sql(
    executor,
    `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND created_at < now() - make_interval(hours => $3::int)`,
    [apiKeyId, key, ttlHours],
  );
}

export interface IdempotencyClaim {
  /** identifies this claim's lease: only its holder may bind a resource or release it */
  token: string;
  /** what an earlier attempt under this key created (its lease lapsed before it answered) */
  resourceId: string | null;
}

/**
 * Claims the key for a request, with a lease of `leaseSeconds`. Of two at once one wins
 * (the primary key). A key still without an answer whose lease has lapsed (its request
 * died: a crash, an outage) is taken over by a retry with the same request, which learns
 * what the first attempt created, if anything. null: the key is taken (answered, in
 * progress, or used for another request).
 */
export async function claimIdempotencyKey(
  executor: Executor,
  apiKeyId: string,
  key: string,
  requestHash: string,
  leaseSeconds: number,
): Promise<IdempotencyClaim | null> {
  const token = randomUUID();
  const { rows } = await sql<{ resource_id: string | null }>(
    executor,
    `INSERT INTO idempotency_keys AS k (api_key_id, key, request_hash, locked_until, lease_token)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision), $5)
     ON CONFLICT (api_key_id, key) DO UPDATE SET locked_until = EXCLUDED.locked_until, lease_token = EXCLUDED.lease_token
       WHERE k.status_code IS NULL AND k.request_hash = EXCLUDED.request_hash
         AND (k.locked_until IS NULL OR k.locked_until < now())
     RETURNING k.resource_id`,
    [apiKeyId, key, requestHash, leaseSeconds, token],
  );
  return rows.length === 1 ? { token, resourceId: rows[0].resource_id } : null;
}

/**
 * In the transaction that creates the resource: records its id under the key, if this
 * claim still holds the lease. false: another attempt took the key over, so this one
 * must not commit what it made (the caller rolls back).
 */
export async function bindIdempotencyResource(
  executor: Executor,
  apiKeyId: string,
  key: string,
  token: string,
  resourceId: string,
): Promise<boolean> {
  const { rowCount } = await sql(
    executor,
    `UPDATE idempotency_keys SET resource_id = $4
      WHERE api_key_id = $1 AND key = $2 AND lease_token = $3 AND status_code IS NULL`,
    [apiKeyId, key, token, resourceId],
  );
  return rowCount === 1;
}

/**
 * A request that failed gives its key back: forgotten if it created nothing (the key may
 * be used again), else its lease ends now, so a retry replays what it created.
 */
export async function releaseIdempotencyKey(executor: Executor, apiKeyId: string, key: string, token: string): Promise<void> {
  await sql(
    executor,
    `WITH gone AS (
       DELETE FROM idempotency_keys
        WHERE api_key_id = $1 AND key = $2 AND lease_token = $3 AND status_code IS NULL AND resource_id IS NULL
       RETURNING key)
     UPDATE idempotency_keys SET locked_until = now()
      WHERE api_key_id = $1 AND key = $2 AND lease_token = $3 AND status_code IS NULL AND resource_id IS NOT NULL`,
    [apiKeyId, key, token],
  );
}

/** Seconds until an in-progress key's lease lapses (for Retry-After); 1 at least. */
export function leaseSecondsLeft(k: IdempotencyKey): number {
  if (!k.lockedUntil) return 1;
  return Math.max(1, Math.ceil((new Date(k.lockedUntil).getTime() - Date.now()) / 1000));
}

export async function findIdempotencyKey(executor: Executor, apiKeyId: string, key: string): Promise<IdempotencyKey | null> {
  return managerOf(executor).findOne(IdempotencyKey, { where: { apiKeyId, key } });
}

/** The first request's response, stored for replay. */
export async function completeIdempotencyKey(
  executor: Executor,
  apiKeyId: string,
  key: string,
  response: { statusCode: number; body: unknown },
): Promise<void> {
  await managerOf(executor).update(
    IdempotencyKey,
    { apiKeyId, key },
    // jsonb: stored as given (TypeORM serialises it); undefined means no body
    { statusCode: response.statusCode, response: (response.body === undefined ? null : response.body) as object },
  );
}

export async function forgetIdempotencyKey(executor: Executor, apiKeyId: string, key: string): Promise<void> {
  await managerOf(executor).delete(IdempotencyKey, { apiKeyId, key });
}

/** Player erasure: replays that would show an erased profile. */
export async function forgetIdempotentResponsesFor(executor: Executor, resourceId: string): Promise<void> {
  await sql(executor, `DELETE FROM idempotency_keys WHERE response->>'id' = $1`, [resourceId]);
}
