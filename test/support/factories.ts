// Test factories that write real rows through the repositories (Outline style): each
// test builds its own organization and workspace, so tests never see each other's data.
import type { Db } from '../../db/db';
import { insertAgent } from '../../db/repositories/agents';
import { apiKeysRepository } from '../../db/repositories/api-keys';
import { ensureOrganization } from '../../db/repositories/organizations';
import { upsertPlayerRow } from '../../db/repositories/players';
import { setTicketsCreatedIn } from '../../db/repositories/ticket-usage';
import { ensureWorkspace, updateWorkspaceSettings } from '../../db/repositories/workspaces';
import { generateApiKey, type KeyKind } from '../../lib/api-keys';
import { newId } from '../../lib/ids';

export interface Org { id: string; plan: string }
export interface Workspace { id: string; organizationId: string; environment: 'live' | 'sandbox' }
export interface Key { id: string; key: string }

export async function createOrganization(db: Db, plan: 'starter' | 'growth' | 'scale' = 'scale'): Promise<Org> {
  const id = newId('org');
  await ensureOrganization(db, { id, name: `Org ${id}`, plan });
  return { id, plan };
}

export async function createWorkspace(
  db: Db,
  org: Org,
  environment: 'live' | 'sandbox' = 'live',
  settings: object = {},
): Promise<Workspace> {
  const id = newId('ws');
  await ensureWorkspace(db, { id, organizationId: org.id, name: `Workspace ${id}`, environment });
  if (Object.keys(settings).length) {
    await db.transaction((m) => updateWorkspaceSettings(m, id, () => ({ settings: settings as Record<string, unknown>, result: undefined })));
  }
  return { id, organizationId: org.id, environment };
}

export async function createApiKey(
  db: Db,
  org: Org,
  opts: { kind?: KeyKind; scopes?: string[]; workspaceId?: string | null; playerId?: string | null; name?: string } = {},
): Promise<Key> {
  const kind = opts.kind ?? 'sk_live_';
  const { key, prefix, hash } = generateApiKey(kind);
  const id = newId('key');
  await apiKeysRepository(db).insert({
    id,
    organizationId: org.id,
    workspaceId: opts.workspaceId ?? null,
    name: opts.name ?? 'test key',
    type: kind === 'sdk_' ? 'sdk' : 'server',
    environment: kind === 'sk_test_' ? 'test' : 'live',
    prefix,
    hash,
    scopes: opts.scopes ?? (kind === 'sdk_' ? ['tickets:read', 'tickets:write'] : ['admin:all']),
    playerId: opts.playerId ?? null,
    createdBy: null,
  });
  return { id, key };
}

/** The organization has created `count` tickets in `month` (YYYY-MM) so far. */
export async function setTicketUsage(db: Db, organizationId: string, month: string, count: number): Promise<void> {
  await setTicketsCreatedIn(db, organizationId, month, count);
}

export async function createAgent(db: Db, workspaceId: string, name = 'Ada Agent'): Promise<{ id: string; name: string }> {
  const id = newId('agt');
  await insertAgent(db, { id, workspaceId, name, email: `${id}@studio.test`, avatarUrl: `https://avatars.example.com/${id}.png` });
  return { id, name };
}

export async function createPlayer(
  db: Db,
  workspaceId: string,
  opts: { playerId?: string; displayName?: string; email?: string | null; metadata?: Record<string, string> } = {},
): Promise<{ id: string; playerId: string }> {
  const id = newId('kpl');
  const playerId = opts.playerId ?? `plr_${id.slice(4)}`;
  await upsertPlayerRow(db, { id, workspaceId, playerId, displayName: opts.displayName ?? 'Pat Player', email: opts.email ?? null, metadata: opts.metadata ?? {} });
  return { id, playerId };
}

/** An organization with one workspace and an all-scopes server key for it (createTenant). */
export interface Tenant {
  org: Org;
  workspace: Workspace;
  key: Key;
}

export async function createTenant(
  db: Db,
  opts: { plan?: 'starter' | 'growth' | 'scale'; environment?: 'live' | 'sandbox'; settings?: object } = {},
): Promise<Tenant> {
  const org = await createOrganization(db, opts.plan ?? 'scale');
  const environment = opts.environment ?? 'live';
  const workspace = await createWorkspace(db, org, environment, opts.settings);
  const key = await createApiKey(db, org, { kind: environment === 'sandbox' ? 'sk_test_' : 'sk_live_' });
  return { org, workspace, key };
}
