import type { Executor } from '../../db/db';
import { apiKeysRepository, type KeyReach } from '../../db/repositories/api-keys';
import { apiKeyNotFound } from './errors';
import type { KeyRow } from './types';

/**
 * Revokes a ticketing API key within the caller's reach (revoking again keeps the first
 * time); api_key_not_found for a key outside it. Dropping the key from the processes'
 * caches is the caller's (its credential cache).
 */
export async function revokeApiKey(executor: Executor, reach: KeyReach, keyId: string, revokedBy: string): Promise<KeyRow> {
  const repo = apiKeysRepository(executor);
  const row = await repo.findInReach(reach, keyId);
  if (!row) throw apiKeyNotFound(keyId);
  await repo.revoke(row.id, revokedBy);
  return row;
}
