// idempotency_keys: the first response to a POST with an Idempotency-Key, per API key.
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

/** Claims the key for a first request (ON CONFLICT: of two at once one wins); false when it is taken. */
export async function claimIdempotencyKey(executor: Executor, apiKeyId: string, key: string, requestHash: string): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `INSERT INTO idempotency_keys (api_key_id, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING key`,
    [apiKeyId, key, requestHash],
  );
  return rows.length === 1;
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
