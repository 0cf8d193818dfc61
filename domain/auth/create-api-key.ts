import type { Executor } from '../../db/db';
import { apiKeysRepository } from '../../db/repositories/api-keys';
import { generateApiKey } from '../../lib/api-keys';
import { newId } from '../../lib/ids';
import { forbidden, keyEnvironmentMismatch } from './errors';
import type { KeyCreator, KeyRow, NewApiKey } from './types';

/**
 * A new ticketing API key, made by another key of the organization: its row and the key
 * itself (shown once; only its hash is stored). The rules: a workspace-bound creator
 * makes keys of its own workspace only, the workspace must be the organization's, a
 * test key makes test keys only, and a key's environment matches its workspace's
 * (sandbox: test). Refuses with forbidden or validation_error (invalid).
 */
export async function createApiKey(executor: Executor, creator: KeyCreator, body: NewApiKey): Promise<{ row: KeyRow; key: string }> {
  const repo = apiKeysRepository(executor);
  const workspaceId = body.workspaceId ?? creator.workspaceId;
  if (creator.workspaceId && workspaceId !== creator.workspaceId) {
    throw forbidden('A workspace-bound key can only create keys for its own workspace');
  }
  const ws = workspaceId ? await repo.workspace(workspaceId) : null;
  if (workspaceId && (!ws || ws.organizationId !== creator.organizationId)) {
    throw forbidden(`This API key has no access to workspace '${workspaceId}'`);
  }
  const environment = body.environment ?? (ws ? (ws.environment === 'sandbox' ? 'test' : 'live') : creator.environment);
  if (creator.environment === 'test' && environment === 'live') {
    throw forbidden('A test key can only create test keys');
  }
  if (ws && (ws.environment === 'sandbox') !== (environment === 'test')) {
    throw keyEnvironmentMismatch(environment, ws);
  }
  const { key, prefix, hash } = generateApiKey(body.type === 'sdk' ? 'sdk_' : environment === 'test' ? 'sk_test_' : 'sk_live_');
  const row = await repo.insert({
    id: newId('key'),
    organizationId: creator.organizationId,
    workspaceId: workspaceId ?? null,
    name: body.name,
    type: body.type,
    environment,
    prefix,
    hash,
    scopes: body.scopes,
    playerId: body.type === 'sdk' ? body.playerId! : null,
    createdBy: creator.keyId,
  });
  return { row, key };
}
