// push_api_keys: an app's API keys (`Authorization: ApiKey …`), stored as SHA-256 of the
// whole key; revoked keys keep their row (revoked_at) and stop authenticating at once.
import { PushApiKey } from '../entities';
import type { PushApiKeyRow } from '../../domain/push/types';
import { managerOf, sql, type Executor } from '../db';
import { TRIAL_EXPIRED_SQL } from './push-users';

/** What authentication needs from a key: its app, that app's company, and whether its trial ran out. */
export interface PushKeyPrincipalRow {
  id: string;
  appId: string;
  companyId: string;
  trialExpired: boolean;
  /** when the company is on a trial: its end (a cached row is checked against it on each request) */
  trialEndsAt: Date | null;
}

const COLUMNS = `id, app_id AS "appId", name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/** A live (not revoked) key by its hash: one indexed lookup on the auth path. */
export async function findLivePushKeyByHash(executor: Executor, keyHash: string): Promise<PushKeyPrincipalRow | null> {
  const { rows } = await sql<PushKeyPrincipalRow>(
    executor,
    `SELECT k.id, k.app_id AS "appId", a.company_id AS "companyId",
            ${TRIAL_EXPIRED_SQL('c')} AS "trialExpired",
            CASE WHEN c.status = 'trial' THEN c.trial_ends_at END AS "trialEndsAt"
       FROM push_api_keys k JOIN push_apps a ON a.id = k.app_id JOIN push_companies c ON c.id = a.company_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [keyHash],
  );
  return rows[0] ?? null;
}

export async function insertPushApiKey(
  executor: Executor,
  k: { id: string; appId: string; name: string; prefix: string; keyHash: string },
): Promise<PushApiKeyRow> {
  await managerOf(executor).insert(PushApiKey, k);
  return (await findPushApiKey(executor, k.id))!;
}

/** A live key by id, with the company of its app (for the access check). */
export async function findPushApiKey(executor: Executor, id: string): Promise<(PushApiKeyRow & { companyId: string }) | null> {
  const { rows } = await sql<PushApiKeyRow & { companyId: string }>(
    executor,
    `SELECT k.id, k.app_id AS "appId", k.name, k.prefix, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt",
            a.company_id AS "companyId"
       FROM push_api_keys k JOIN push_apps a ON a.id = k.app_id
      WHERE k.id = $1 AND k.revoked_at IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

/** An app's live keys, oldest first (no secrets: only the hash is stored anyway). */
export async function listPushApiKeys(executor: Executor, appId: string): Promise<PushApiKeyRow[]> {
  const { rows } = await sql<PushApiKeyRow>(
    executor,
    `SELECT ${COLUMNS} FROM push_api_keys WHERE app_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
    [appId],
  );
  return rows;
}

export async function revokePushApiKey(executor: Executor, id: string): Promise<boolean> {
  const { rowCount } = await sql(executor, `UPDATE push_api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
  return (rowCount ?? 0) > 0;
}

/** lastUsedAt is advisory: written at most once a minute per key. */
export async function touchPushApiKey(executor: Executor, id: string): Promise<void> {
  await sql(
    executor,
    `UPDATE push_api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')`,
    [id],
  );
}
