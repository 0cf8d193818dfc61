import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { insertPushApiKey } from '../../db/repositories/push-api-keys';
import type { PushApiKeyRow } from './types';
import { generatePushApiKey } from '../../lib/push/api-keys';

/** A new key of the app: its row, and the key itself (shown once, only its hash is stored). */
export async function createApiKey(executor: Executor, appId: string, name: string): Promise<{ row: PushApiKeyRow; key: string }> {
  const { key, prefix, hash } = generatePushApiKey();
  const row = await insertPushApiKey(executor, { id: randomUUID(), appId, name, prefix, keyHash: hash });
  return { row, key };
}
