import type { Executor } from '../../db/db';
import { findPushApiKey, revokePushApiKey } from '../../db/repositories/push-api-keys';
import { apiKeyNotFound } from './errors';
import type { RevokeKeyMarkers } from './types';

/**
 * Revokes a live key of the company. An unknown, revoked or other company's key is the
 * same not_found. The markers first (`revokeMarkers`, the caller's key cache): every
 * process refuses the key from the next request on, whatever its cache holds.
 */
export async function revokeApiKey(executor: Executor, companyId: string, keyId: string, revokeMarkers: RevokeKeyMarkers): Promise<void> {
  const key = await findPushApiKey(executor, keyId);
  if (!key || key.companyId !== companyId) throw apiKeyNotFound(keyId);
  await revokeMarkers([key.id]);
  await revokePushApiKey(executor, key.id);
}
