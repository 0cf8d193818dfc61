// Factories and helpers for the auth tests (the shared ones live in factories.ts).
import type { Db } from '../../db/db';
import { apiKeysRepository } from '../../db/repositories/api-keys';
import type { TestApi } from './api';
import { createApiKey, createOrganization, createWorkspace, type Key, type Org } from './factories';

/** Marks a key revoked `daysAgo` days ago (as if revoked back then, by itself). */
export async function revokeKeyDaysAgo(db: Db, keyId: string, daysAgo: number): Promise<void> {
  await apiKeysRepository(db).revoke(keyId, keyId, new Date(Date.now() - daysAgo * 86_400_000));
}

export async function keyExists(db: Db, keyId: string): Promise<boolean> {
  return (await apiKeysRepository(db).findById(keyId)) !== null;
}

/** POST /v1/auth/token; asserts nothing, returns the raw response. */
export function requestToken(api: TestApi, apiKey: string, organizationId: string) {
  return api.request('POST', '/v1/auth/token', { body: { apiKey, organizationId } });
}

/** An access token for `key`, failing loudly if the exchange does not succeed. */
export async function accessToken(api: TestApi, key: Key, org: Org): Promise<string> {
  const res = await requestToken(api, key.key, org.id);
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken;
}

/**
 * An organization with a live and a sandbox workspace and keys of every kind: an
 * admin live key, an admin test key, a read-only live key and an sdk key bound to
 * the live workspace and one player.
 */
export async function createAuthTenant(db: Db, plan: 'starter' | 'growth' | 'scale' = 'scale') {
  const org = await createOrganization(db, plan);
  const live = await createWorkspace(db, org, 'live');
  const sandbox = await createWorkspace(db, org, 'sandbox');
  const admin = await createApiKey(db, org, { kind: 'sk_live_', scopes: ['admin:all'], name: 'admin live' });
  const testAdmin = await createApiKey(db, org, { kind: 'sk_test_', scopes: ['admin:all'], name: 'admin test' });
  const readOnly = await createApiKey(db, org, { kind: 'sk_live_', scopes: ['tickets:read'], name: 'read only' });
  const sdk = await createApiKey(db, org, { kind: 'sdk_', workspaceId: live.id, playerId: 'plr_8812', name: 'sdk' });
  return { org, live, sandbox, admin, testAdmin, readOnly, sdk };
}

/** The envelope every ticketing error has; returns the code for a compact assertion. */
export function errorCode(res: { body: any }): string | undefined {
  return res.body?.error?.code;
}
