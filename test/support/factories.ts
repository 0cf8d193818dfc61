// Test factories that write real rows (Outline style): each test builds its own
// organization and workspace, so tests never see each other's data.
import type { Db } from '../../db/db';
import { generateApiKey, type KeyKind } from '../../lib/api-keys';
import { newId } from '../../lib/ids';

export interface Org { id: string; plan: string }
export interface Workspace { id: string; organizationId: string; environment: 'live' | 'sandbox' }
export interface Key { id: string; key: string }

export async function createOrganization(db: Db, plan: 'starter' | 'growth' | 'scale' = 'scale'): Promise<Org> {
  const id = newId('org');
  await db.query('INSERT INTO organizations (id, name, plan) VALUES ($1, $2, $3)', [id, `Org ${id}`, plan]);
  return { id, plan };
}

export async function createWorkspace(
  db: Db,
  org: Org,
  environment: 'live' | 'sandbox' = 'live',
  settings: object = {},
): Promise<Workspace> {
  const id = newId('ws');
  await db.query('INSERT INTO workspaces (id, organization_id, name, environment, settings) VALUES ($1, $2, $3, $4, $5)', [
    id,
    org.id,
    `Workspace ${id}`,
    environment,
    JSON.stringify(settings),
  ]);
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
  await db.query(
    `INSERT INTO api_keys (id, organization_id, workspace_id, name, type, environment, prefix, secret_hash, scopes, player_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      org.id,
      opts.workspaceId ?? null,
      opts.name ?? 'test key',
      kind === 'sdk_' ? 'sdk' : 'server',
      kind === 'sk_test_' ? 'test' : 'live',
      prefix,
      hash,
      opts.scopes ?? (kind === 'sdk_' ? ['tickets:read', 'tickets:write'] : ['admin:all']),
      opts.playerId ?? null,
    ],
  );
  return { id, key };
}

export async function createAgent(db: Db, workspaceId: string, name = 'Ada Agent'): Promise<{ id: string; name: string }> {
  const id = newId('agt');
  await db.query('INSERT INTO agents (id, workspace_id, name, email, avatar_url) VALUES ($1, $2, $3, $4, $5)', [
    id,
    workspaceId,
    name,
    `${id}@studio.test`,
    `https://avatars.example.com/${id}.png`,
  ]);
  return { id, name };
}

export async function createPlayer(
  db: Db,
  workspaceId: string,
  opts: { playerId?: string; displayName?: string; email?: string | null; metadata?: Record<string, string> } = {},
): Promise<{ id: string; playerId: string }> {
  const id = newId('kpl');
  const playerId = opts.playerId ?? `plr_${id.slice(4)}`;
  await db.query(
    `INSERT INTO players (id, workspace_id, player_id, display_name, email, metadata, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now())`,
    [id, workspaceId, playerId, opts.displayName ?? 'Pat Player', opts.email ?? null, JSON.stringify(opts.metadata ?? {})],
  );
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
