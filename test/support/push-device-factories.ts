// Rows the push device and segment tests build on: a company and an app of their own,
// devices and segments, written through the repositories (the accounts API is not what these
// tests exercise).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { insertPushApiKey } from '../../db/repositories/push-api-keys';
import { deletePushApp, insertPushApp } from '../../db/repositories/push-apps';
import { insertDeviceRows, setDeviceActive } from '../../db/repositories/push-devices';
import { insertSegment } from '../../db/repositories/push-segments';
import { ensurePushCompany } from '../../db/repositories/push-demo';
import { findPushUserById } from '../../db/repositories/push-users';
import { hashApiKey } from '../../lib/api-keys';
import type { TestApi } from './api';
import { eventually } from './eventually';
import { registerAccount } from './push';

export interface PushFixture {
  companyId: string;
  appId: string;
}

export async function createPushCompanyAndApp(db: Db, platform: 'Android' | 'iOS' = 'Android'): Promise<PushFixture> {
  const companyId = randomUUID();
  await ensurePushCompany(db, { id: companyId, name: `Company ${companyId}` });
  return { companyId, appId: await createPushApp(db, companyId, platform) };
}

/** Deletes the fixture's app, and with it its devices (the company row stays: nothing reads it). */
export async function dropPushFixture(db: Db, fx: PushFixture): Promise<void> {
  await deletePushApp(db, fx.appId);
}

/**
 * A company as the devices tests need it: an account (over HTTP, so its access token is
 * real), two apps of its company and an API key for each (rows written through the
 * repositories; the apps and keys endpoints are not what these tests exercise).
 */
export interface TwoAppTenant {
  companyId: string;
  userToken: string;
  appA: string;
  appB: string;
  keyA: string;
  keyB: string;
}

export async function createTwoAppTenant(api: TestApi): Promise<TwoAppTenant> {
  const account = await registerAccount(api);
  const companyId = (await findPushUserById(api.deps.db, account.userId))!.companyId!;
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
  await insertPushApp(db, { id: appId, companyId, name: `App ${appId}`, bundleId: 'com.example.game', platform });
  return appId;
}

export async function createPushKey(db: Db, appId: string): Promise<string> {
  const key = `pk_${randomBytes(24).toString('base64url')}`;
  await insertPushApiKey(db, { id: randomUUID(), appId, name: 'sdk', prefix: key.slice(0, 8), keyHash: hashApiKey(key) });
  return key;
}

/** `count` active devices of the app in one statement, tokens `tok-<n>` (n from 1), platform and metadata of n given; answers them in order. */
export async function insertManyDevices<P extends 'Android' | 'iOS'>(
  db: Db,
  appId: string,
  count: number,
  of: (n: number) => { platform: P; deviceMetadata: Record<string, unknown> },
): Promise<{ id: string; platform: P }[]> {
  const rows = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), appId, deviceToken: `tok-${i + 1}`, ...of(i + 1) }));
  await insertDeviceRows(db, rows);
  return rows.map((r) => ({ id: r.id, platform: r.platform }));
}

/** Marks a device inactive, as a dead token leaves it. */
export async function deactivateDevice(db: Db, deviceId: string): Promise<void> {
  assert.ok(await setDeviceActive(db, deviceId, false), `no device ${deviceId}`);
}

/** A segment of the app that every device matches (an AND of no conditions); answers its id. */
export async function createMatchAllSegment(db: Db, appId: string, name = 'all'): Promise<string> {
  const id = randomUUID();
  await insertSegment(db, { id, appId, name, description: null, filter: { operator: 'AND', conditions: [] } });
  return id;
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
    await deletePushApp(runner.manager, appId);
    const pending = request();
    // until the request waits on the locks (at most 5 s: then it commits anyway)
    const waiting = async () =>
      (await api.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%push_%'`)).rows[0].n > 0;
    await eventually(waiting, { timeoutMs: 5_000, everyMs: 25 }).catch(() => undefined);
    await runner.commitTransaction();
    return await pending;
  } finally {
    await runner.release();
  }
}
