// The platform part of `npm run admin -- bootstrap`: the demo platform tenant
// (domain/platform/create-tenant.ts: an organisation, one workspace, an organisation admin
// and an agent, a `service_test_` token each), printed as
// `platform: { organizationId, workspaceId, adminToken, agentToken }`. Every run prints the
// same ids and, while they still work, the same tokens: only the tokens' hashes are in the
// database, so their secrets are kept beside the other demo credentials under .data/
// (owner-only), sealed with the secret box under the checkout's master key. A token that no
// longer works (revoked, expired, a lost or unreadable file) is replaced by a new one for the
// same user; a tenant that is gone (a database reset, a deactivated user, a workspace being
// deleted) by a new tenant.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Db } from '../db/db';
import { findPlatformTokenPrincipal } from '../db/repositories/platform-tokens';
import { findPlatformUser } from '../db/repositories/platform-users';
import { findPlatformWorkspace } from '../db/repositories/platform-workspaces';
import { createPlatformTenant } from '../domain/platform/create-tenant';
import { issuePlatformToken } from '../domain/platform/issue-token';
import { hashPlatformToken } from '../domain/platform/token-secret';
import type { Config } from '../lib/config';
import { masterKey } from '../lib/crypto/master-key';
import { decryptSecret, encryptSecret } from '../lib/crypto/secret-box';

export const PLATFORM_DEMO_NAME = 'Demo Studio';

/** What bootstrap and create-tenant print for the platform API. */
export interface PlatformCredentials {
  organizationId: string;
  workspaceId: string;
  adminToken: string;
  agentToken: string;
}

interface Stored {
  organizationId: string;
  workspaceId: string;
  adminUserId: string;
  agentUserId: string;
  /** `{ adminToken, agentToken }` as JSON, sealed (bound to the organisation's id) */
  sealedTokens: string;
}

const aad = (organizationId: string) => `platform demo tokens:${organizationId}`;

async function readStored(file: string): Promise<Stored | null> {
  try {
    const s = JSON.parse(await readFile(file, 'utf8'));
    return ['organizationId', 'workspaceId', 'adminUserId', 'agentUserId', 'sealedTokens'].every((k) => typeof s?.[k] === 'string') ? s : null;
  } catch {
    return null;
  }
}

async function writeStored(file: string, s: Stored): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
}

function openTokens(config: Config, s: Stored): { adminToken?: string; agentToken?: string } {
  try {
    return JSON.parse(decryptSecret(masterKey(config), s.sealedTokens, aad(s.organizationId)));
  } catch {
    return {}; // another master key, or a file edited by hand: new tokens for the same users
  }
}

type TokenState = 'works' | 'replace' | 'tenant gone';

/** Whether a stored secret still authenticates as `userId` in the demo workspace (the API's own checks, at `now`). */
async function stateOf(db: Db, s: Stored, userId: string, secret: string | undefined, now: Date): Promise<TokenState> {
  const row = secret ? await findPlatformTokenPrincipal(db, hashPlatformToken(secret)) : null;
  if (row && (row.organizationId !== s.organizationId || row.userId !== userId || row.workspaceId !== s.workspaceId)) return 'replace';
  if (row && (row.userStatus !== 'active' || row.workspaceStatus !== 'active')) return 'tenant gone';
  if (row && !(row.expiresAt && new Date(row.expiresAt).getTime() <= now.getTime())) return 'works';
  // no usable token: is the user still active in the organisation, its workspace not being deleted?
  const [user, workspace] = await Promise.all([findPlatformUser(db, userId), findPlatformWorkspace(db, s.workspaceId)]);
  const live = user?.status === 'active' && user.organizationId === s.organizationId && workspace?.status === 'active' && workspace.organizationId === s.organizationId;
  return live ? 'replace' : 'tenant gone';
}

export async function bootstrapPlatform(db: Db, config: Config, ticketingCredentialsFile: string): Promise<PlatformCredentials> {
  const file = join(dirname(ticketingCredentialsFile), `platform-${basename(ticketingCredentialsFile)}`);
  const now = new Date();
  const stored = await readStored(file);
  if (stored) {
    const secrets = openTokens(config, stored);
    const admin = await stateOf(db, stored, stored.adminUserId, secrets.adminToken, now);
    const agent = await stateOf(db, stored, stored.agentUserId, secrets.agentToken, now);
    if (admin !== 'tenant gone' && agent !== 'tenant gone') {
      const common = { organizationId: stored.organizationId, workspaceId: stored.workspaceId, environment: 'test' as const, now };
      const adminToken = admin === 'works' ? secrets.adminToken! : (await issuePlatformToken(db, { ...common, userId: stored.adminUserId, name: 'Bootstrap admin token' })).secret;
      const agentToken = agent === 'works' ? secrets.agentToken! : (await issuePlatformToken(db, { ...common, userId: stored.agentUserId, name: 'Bootstrap agent token' })).secret;
      if (admin !== 'works' || agent !== 'works') await writeStored(file, seal(config, stored, { adminToken, agentToken }));
      return { organizationId: stored.organizationId, workspaceId: stored.workspaceId, adminToken, agentToken };
    }
  }
  const tenant = await createPlatformTenant(db, { name: PLATFORM_DEMO_NAME, now });
  const ids = { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, adminUserId: tenant.adminUserId, agentUserId: tenant.agentUserId };
  await writeStored(file, seal(config, ids, { adminToken: tenant.adminToken, agentToken: tenant.agentToken }));
  return { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, adminToken: tenant.adminToken, agentToken: tenant.agentToken };
}

function seal(config: Config, ids: Omit<Stored, 'sealedTokens'>, tokens: { adminToken: string; agentToken: string }): Stored {
  return { ...ids, sealedTokens: encryptSecret(masterKey(config), JSON.stringify(tokens), aad(ids.organizationId)) };
}

/** A new platform tenant (create-tenant): nothing is stored; its tokens are printed once. */
export async function createPlatformCustomer(db: Db, name: string): Promise<PlatformCredentials> {
  const t = await createPlatformTenant(db, { name });
  return { organizationId: t.organizationId, workspaceId: t.workspaceId, adminToken: t.adminToken, agentToken: t.agentToken };
}
