// Rows the push device and segment tests build on: a company and an app of their own,
// written straight into Postgres (the accounts API is not what these tests exercise).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';

export interface PushFixture {
  companyId: string;
  appId: string;
}

export async function createPushCompanyAndApp(db: Db, platform: 'Android' | 'iOS' = 'Android'): Promise<PushFixture> {
  const companyId = randomUUID();
  const appId = randomUUID();
  await db.query('INSERT INTO push_companies (id, name) VALUES ($1, $2)', [companyId, `Company ${companyId}`]);
  await db.query('INSERT INTO push_apps (id, company_id, name, bundle_id, platform) VALUES ($1, $2, $3, $4, $5)', [
    appId,
    companyId,
    `App ${appId}`,
    'com.example.game',
    platform,
  ]);
  return { companyId, appId };
}

export async function dropPushCompany(db: Db, companyId: string): Promise<void> {
  await db.query('DELETE FROM push_companies WHERE id = $1', [companyId]);
}
