import type { Queryable } from '../../../db/db';
import type { AuthContext } from '../access';

export type Plan = AuthContext['plan'];

/** One api_keys row with its organization's plan (the rate limit needs it on every request). */
export interface KeyRow {
  id: string;
  organizationId: string;
  workspaceId: string | null;
  name: string;
  type: 'server' | 'sdk';
  environment: 'live' | 'test';
  prefix: string;
  scopes: string[];
  playerId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  plan: Plan;
}

const COLUMNS = `k.id, k.organization_id AS "organizationId", k.workspace_id AS "workspaceId", k.name, k.type,
  k.environment, k.prefix, k.scopes, k.player_id AS "playerId", k.created_at AS "createdAt",
  k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt", o.plan`;
const FROM = 'api_keys k JOIN organizations o ON o.id = k.organization_id';

/** Which keys a caller may see and manage: its organization, narrowed for test and workspace-bound keys. */
export interface KeyReach {
  organizationId: string;
  /** 'test' when the caller is a sandbox key (it never touches live keys); null: every environment */
  environment: 'test' | null;
  /** the caller's own workspace when it is workspace-bound; null: the whole organization */
  workspaceId: string | null;
}

export type NewKey = Pick<
  KeyRow,
  'id' | 'organizationId' | 'workspaceId' | 'name' | 'type' | 'environment' | 'prefix' | 'scopes' | 'playerId'
> & { hash: string; createdBy: string | null };

export function keysRepository(db: Queryable) {
  return {
    async findByHash(hash: string): Promise<KeyRow | null> {
      const { rows } = await db.query<KeyRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE k.secret_hash = $1`, [hash]);
      return rows[0] ?? null;
    },

    async findById(id: string): Promise<KeyRow | null> {
      const { rows } = await db.query<KeyRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE k.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** Newest first; revoked keys included (they are the audit trail until the purge). */
    async list(reach: KeyReach): Promise<KeyRow[]> {
      const { rows } = await db.query<KeyRow>(
        `SELECT ${COLUMNS} FROM ${FROM}
         WHERE k.organization_id = $1 AND ($2::text IS NULL OR k.environment = $2) AND ($3::text IS NULL OR k.workspace_id = $3)
         ORDER BY k.created_at DESC, k.id DESC`,
        [reach.organizationId, reach.environment, reach.workspaceId],
      );
      return rows;
    },

    async findInReach(reach: KeyReach, id: string): Promise<KeyRow | null> {
      const { rows } = await db.query<KeyRow>(
        `SELECT ${COLUMNS} FROM ${FROM}
         WHERE k.id = $4 AND k.organization_id = $1 AND ($2::text IS NULL OR k.environment = $2)
           AND ($3::text IS NULL OR k.workspace_id = $3)`,
        [reach.organizationId, reach.environment, reach.workspaceId, id],
      );
      return rows[0] ?? null;
    },

    async insert(k: NewKey): Promise<KeyRow> {
      await db.query(
        `INSERT INTO api_keys (id, organization_id, workspace_id, name, type, environment, prefix, secret_hash, scopes, player_id, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [k.id, k.organizationId, k.workspaceId, k.name, k.type, k.environment, k.prefix, k.hash, k.scopes, k.playerId, k.createdBy],
      );
      return (await this.findById(k.id))!;
    },

    /** Sets revoked_at once; revoking again keeps the first time (revocation is permanent). */
    async revoke(id: string, revokedBy: string): Promise<void> {
      await db.query(
        'UPDATE api_keys SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL',
        [id, revokedBy],
      );
    },

    // The WHERE clause keeps several API processes from all writing the same minute.
    async touch(id: string): Promise<void> {
      await db.query(
        `UPDATE api_keys SET last_used_at = now()
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
        [id],
      );
    },

    async workspace(id: string): Promise<{ id: string; organizationId: string; environment: 'live' | 'sandbox' } | null> {
      const { rows } = await db.query(
        'SELECT id, organization_id AS "organizationId", environment FROM workspaces WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },
  };
}
export type KeysRepository = ReturnType<typeof keysRepository>;
