// api_keys: hashed API keys, their reach and their audit facts (created_by, revoked_by).
import { IsNull, type FindOptionsWhere } from 'typeorm';
import { ApiKey } from '../entities';
import type { KeyRow } from '../../domain/auth/types';
import { managerOf, sql, type Executor } from '../db';
import { findWorkspaceAccess } from './workspaces';

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

// The key lookups authenticate every request that is not served from the key cache:
// SQL through the query API, one round trip with the plan (docs/benchmarks.md).
const COLUMNS = `k.id, k.organization_id AS "organizationId", k.workspace_id AS "workspaceId", k.name, k.type,
  k.environment, k.prefix, k.scopes, k.player_id AS "playerId", k.created_at AS "createdAt",
  k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt", o.plan`;
const FROM = 'api_keys k JOIN organizations o ON o.id = k.organization_id';

function toKeyRow(k: ApiKey): KeyRow {
  return {
    id: k.id,
    organizationId: k.organizationId,
    workspaceId: k.workspaceId,
    name: k.name,
    type: k.type,
    environment: k.environment,
    prefix: k.prefix,
    scopes: k.scopes,
    playerId: k.playerId,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    plan: k.organization!.plan,
  };
}

function inReach(reach: KeyReach): FindOptionsWhere<ApiKey> {
  return {
    organizationId: reach.organizationId,
    ...(reach.environment ? { environment: reach.environment } : {}),
    ...(reach.workspaceId ? { workspaceId: reach.workspaceId } : {}),
  };
}

export function apiKeysRepository(executor: Executor) {
  const m = () => managerOf(executor);
  return {
    async findByHash(hash: string): Promise<KeyRow | null> {
      const { rows } = await sql<KeyRow>(executor, `SELECT ${COLUMNS} FROM ${FROM} WHERE k.secret_hash = $1`, [hash]);
      return rows[0] ?? null;
    },

    async findById(id: string): Promise<KeyRow | null> {
      const { rows } = await sql<KeyRow>(executor, `SELECT ${COLUMNS} FROM ${FROM} WHERE k.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** Newest first; revoked keys included (they are the audit trail until the purge). */
    async list(reach: KeyReach): Promise<KeyRow[]> {
      const keys = await m().find(ApiKey, {
        where: inReach(reach),
        relations: { organization: true },
        order: { createdAt: 'DESC', id: 'DESC' },
      });
      return keys.map(toKeyRow);
    },

    async findInReach(reach: KeyReach, id: string): Promise<KeyRow | null> {
      const key = await m().findOne(ApiKey, { where: { ...inReach(reach), id }, relations: { organization: true } });
      return key ? toKeyRow(key) : null;
    },

    async insert(k: NewKey): Promise<KeyRow> {
      const { hash, ...fields } = k;
      await m().insert(ApiKey, { ...fields, secretHash: hash });
      return (await this.findById(k.id))!;
    },

    /** Sets revoked_at once (now, or `at`); revoking again keeps the first time (revocation is permanent). */
    async revoke(id: string, revokedBy: string, at?: Date): Promise<void> {
      await m().update(ApiKey, { id, revokedAt: IsNull() }, { revokedAt: at ?? (() => 'now()'), revokedBy });
    },

    // The condition keeps several API processes from all writing the same minute.
    async touch(id: string): Promise<void> {
      await m()
        .createQueryBuilder()
        .update(ApiKey)
        .set({ lastUsedAt: () => 'now()' })
        .where('id = :id', { id })
        .andWhere(`(last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`)
        .execute();
    },

    workspace: (id: string) => findWorkspaceAccess(m(), id),

    /** Whether this unrevoked key of the organization still has this hash (the stored demo key). */
    async isUsable(id: string, hash: string, organizationId: string): Promise<boolean> {
      return m().exists(ApiKey, { where: { id, secretHash: hash, organizationId, revokedAt: IsNull() } });
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;

