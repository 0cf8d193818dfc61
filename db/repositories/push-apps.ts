// push_apps: a company's apps with their sealed FCM / APNs credentials. Deleting an app
// deletes its devices, keys, segments and sends through the foreign keys' cascades.
import { PushApp } from '../entities';
import { managerOf, sql, type Executor } from '../db';
import type { PushAppRecord } from '../../domain/push/types';

const COLUMNS = `id, company_id AS "companyId", name, bundle_id AS "bundleId", platform,
  fcm_credentials IS NOT NULL AS "hasFcmConfig", apns_credentials IS NOT NULL AS "hasApnsConfig",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export async function findPushApp(executor: Executor, id: string): Promise<PushAppRecord | null> {
  const { rows } = await sql<PushAppRecord>(executor, `SELECT ${COLUMNS} FROM push_apps WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** A company's apps, oldest first. */
export async function listPushApps(executor: Executor, companyId: string): Promise<PushAppRecord[]> {
  const { rows } = await sql<PushAppRecord>(
    executor,
    `SELECT ${COLUMNS} FROM push_apps WHERE company_id = $1 ORDER BY created_at, id`,
    [companyId],
  );
  return rows;
}

export async function insertPushApp(
  executor: Executor,
  a: Pick<PushAppRecord, 'id' | 'companyId' | 'name' | 'bundleId' | 'platform'>,
): Promise<void> {
  await managerOf(executor).insert(PushApp, a);
}

export async function renamePushApp(executor: Executor, id: string, name: string): Promise<void> {
  await sql(executor, `UPDATE push_apps SET name = $2, updated_at = now() WHERE id = $1`, [id, name]);
}

/** Stores sealed credentials (`fcm` or `apns`); the box is opaque text here. */
export async function setPushAppCredentials(executor: Executor, id: string, kind: 'fcm' | 'apns', sealed: string): Promise<void> {
  const column = kind === 'fcm' ? 'fcm_credentials' : 'apns_credentials';
  await sql(executor, `UPDATE push_apps SET ${column} = $2, updated_at = now() WHERE id = $1`, [id, sealed]);
}

/** The sealed credentials of an app, for the transports (and nobody else). */
export async function sealedPushAppCredentials(
  executor: Executor,
  id: string,
): Promise<{ fcm: string | null; apns: string | null } | null> {
  const { rows } = await sql<{ fcm: string | null; apns: string | null }>(
    executor,
    `SELECT fcm_credentials AS fcm, apns_credentials AS apns FROM push_apps WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The channel a trigger (migration 1732200000001) NOTIFYs with an app's id whenever its
 * credentials are set, replaced or deleted (the app with them): the local push sink
 * LISTENs to it to trust what was uploaded.
 */
export const PUSH_APP_CREDENTIALS_CHANNEL = 'push_app_credentials';

/** Every app's sealed credentials, apps without any left out: the local push sink's full reload. */
export async function listSealedPushAppCredentials(
  executor: Executor,
): Promise<Array<{ id: string; fcm: string | null; apns: string | null }>> {
  const { rows } = await sql<{ id: string; fcm: string | null; apns: string | null }>(
    executor,
    `SELECT id, fcm_credentials AS fcm, apns_credentials AS apns FROM push_apps
      WHERE fcm_credentials IS NOT NULL OR apns_credentials IS NOT NULL`,
  );
  return rows;
}

export async function deletePushApp(executor: Executor, id: string): Promise<boolean> {
  const { rowCount } = await sql(executor, `DELETE FROM push_apps WHERE id = $1`, [id]);
  return (rowCount ?? 0) > 0;
}
