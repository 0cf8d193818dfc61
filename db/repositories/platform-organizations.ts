// platform_organizations: the platform API's customers and their limit overrides.
import type { PlatformOrganizationRecord } from '../../domain/platform/types';
import { sql, type Executor, type SqlExecutor } from '../db';

const COLUMNS = `id, name, read_limit AS "readLimit", write_limit AS "writeLimit", created_at AS "createdAt"`;

export async function insertPlatformOrganization(executor: Executor, o: { id: string; name: string }): Promise<PlatformOrganizationRecord> {
  const { rows } = await sql<PlatformOrganizationRecord>(executor, `INSERT INTO platform_organizations (id, name) VALUES ($1, $2) RETURNING ${COLUMNS}`, [o.id, o.name]);
  return rows[0];
}

export async function findPlatformOrganization(executor: SqlExecutor, id: string): Promise<PlatformOrganizationRecord | null> {
  const { rows } = await sql<PlatformOrganizationRecord>(executor, `SELECT ${COLUMNS} FROM platform_organizations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Sets (or, with nulls, clears) an organisation's per-token limits; false for an unknown id. */
export async function setPlatformLimits(executor: SqlExecutor, id: string, reads: number | null, writes: number | null): Promise<boolean> {
  const { rowCount } = await sql(executor, `UPDATE platform_organizations SET read_limit = $2, write_limit = $3 WHERE id = $1`, [id, reads, writes]);
  return (rowCount ?? 0) > 0;
}
