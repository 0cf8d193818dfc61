// Rows the push device and segment tests build on: a company and an app of their own,
// written straight into Postgres (the accounts API is not what these tests exercise).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { insertPushApiKey } from '../../db/repositories/push-api-keys';
import { hashApiKey } from '../../lib/api-keys';
import type { TestApi } from './api';
import { registerAccount } from './push';

export interface PushFixture {
  companyId: string;
  appId: string;
}

export async function createPushCompanyAndApp(db: Db, platform: 'Android' | 'iOS' = 'Android'): Promise<PushFixture> {
  const companyId = randomUUID();
  await db.query('INSERT INTO push_companies (id, name) VALUES ($1, $2)', [companyId, `Company ${companyId}`]);
  return { companyId, appId: await createPushApp(db, companyId, platform) };
}

export async function dropPushCompany(db: Db, companyId: string): Promise<void> {
  await db.query('DELETE FROM push_companies WHERE id = $1', [companyId]);
}

/**
 * A company as the devices tests need it: an account (over HTTP, so its access token is
 * real), two apps of its company and an API key for each (rows written directly; the
 * apps and keys endpoints are not what these tests exercise).
 */
export interface PushTenant {
  companyId: string;
  userToken: string;
  appA: string;
  appB: string;
  keyA: string;
  keyB: string;
}

export async function createPushTenant(api: TestApi): Promise<PushTenant> {
  const account = await registerAccount(api);
  const { rows } = await api.deps.db.query<{ company_id: string }>('SELECT company_id FROM push_memberships WHERE user_id = $1', [account.userId]);
  const companyId = rows[0].company_id;
  const appA = await createPushApp(api.deps.db, companyId, 'Android');
  const appB = await createPushApp(api.deps.db, companyId, 'iOS');
  return {
    companyId,
    userToken: account.accessToken,
    appA,
    appB,
    keyA: await createPushKey(api.deps.db, appA),
    keyB: await createPushKey(api.deps.db, appB),
  };
}

export async function createPushApp(db: Db, companyId: string, platform: 'Android' | 'iOS'): Promise<string> {
  const appId = randomUUID();
  await db.query('INSERT INTO push_apps (id, company_id, name, bundle_id, platform) VALUES ($1, $2, $3, $4, $5)', [
    appId,
    companyId,
    `App ${appId}`,
    'com.example.game',
    platform,
  ]);
  return appId;
}

export async function createPushKey(db: Db, appId: string): Promise<string> {
  const key = `pk_${randomBytes(24).toString('base64url')}`;
  await insertPushApiKey(db, { id: randomUUID(), appId, name: 'sdk', prefix: key.slice(0, 8), keyHash: hashApiKey(key) });
  return key;
}

/**
 * Runs `request` while the app's deletion is in flight: the DELETE holds the app's row
 * locks in an open transaction, the request (authenticated from committed rows) waits on
 * them, and the deletion commits; the request then meets an app that no longer exists.
 */
export async function duringAppDeletion<T>(api: TestApi, appId: string, request: () => Promise<T>): Promise<T> {
  const runner = api.deps.db.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('DELETE FROM push_apps WHERE id = $1', [appId]);
    const pending = request();
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await api.deps.db.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%push_%'`,
      );
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await runner.commitTransaction();
    return await pending;
  } finally {
    await runner.release();
  }
}
