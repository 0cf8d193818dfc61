// push_devices: the devices of an app, registered (upserted) by their SDK on every launch.
// The upsert is one SQL statement (INSERT … ON CONFLICT on push_devices_app_id_device_token_key)
// so two concurrent first launches cannot both insert; the rest goes through the
// EntityManager. Segment counts run the compiled filter (./push-segment-sql.ts) as SQL.
import { PushDevice } from '../entities';
import { managerOf, sql, type Executor } from '../db';
import { segmentDeviceQuery } from './push-segment-sql';
import type { SegmentFilter } from '../../domain/push/segment-filter.rules';
import type { DeviceRow } from '../../domain/push/types';


export interface RegisterDevice {
  /** used only when the device is new */
  id: string;
  appId: string;
  deviceToken: string;
  platform: 'Android' | 'iOS';
  /** undefined: keep the stored value; null: clear it */
  userId?: string | null;
  /** replaces the stored object when given */
  deviceMetadata?: Record<string, unknown>;
}

const RETURNING = `id, app_id AS "appId", device_token AS "deviceToken", platform, user_id AS "userId",
  device_metadata AS "deviceMetadata", is_active AS "isActive", last_seen_at AS "lastSeenAt",
  created_at AS "createdAt", updated_at AS "updatedAt", (xmax = 0) AS "created"`;

/**
 * Register = upsert by (app, device token): a known token keeps its id, is active again,
 * gets lastSeenAt now and the platform, userId and metadata given. `created` says
 * whether this call inserted the row.
 */
export async function registerDevice(ex: Executor, d: RegisterDevice): Promise<{ device: DeviceRow; created: boolean }> {
  const { rows } = await sql<DeviceRow & { created: boolean }>(
    ex,
    `INSERT INTO push_devices AS d (id, app_id, device_token, platform, user_id, device_metadata)
     VALUES ($1, $2, $3, $4, $5, COALESCE($6::jsonb, '{}'::jsonb))
     ON CONFLICT ON CONSTRAINT push_devices_app_id_device_token_key DO UPDATE SET
       platform = EXCLUDED.platform,
       user_id = CASE WHEN $7 THEN EXCLUDED.user_id ELSE d.user_id END,
       device_metadata = COALESCE($6::jsonb, d.device_metadata),
       is_active = true,
       last_seen_at = now(),
       updated_at = now()
     RETURNING ${RETURNING}`,
    [
      d.id,
      d.appId,
      d.deviceToken,
      d.platform,
      d.userId ?? null,
      d.deviceMetadata === undefined ? null : JSON.stringify(d.deviceMetadata),
      d.userId !== undefined,
    ],
  );
  const { created, ...device } = rows[0];
  return { device, created };
}

export async function findDevice(ex: Executor, id: string): Promise<DeviceRow | null> {
  return managerOf(ex).findOne(PushDevice, { where: { id } });
}

export interface DeviceListQuery {
  appId: string;
  platform?: 'Android' | 'iOS';
  userId?: string;
  offset: number;
  limit: number;
}

/** A page of an app's devices, oldest first (index push_devices_app_created), and the total. */
export async function listDevices(ex: Executor, q: DeviceListQuery): Promise<{ items: DeviceRow[]; total: number }> {
  const where = { appId: q.appId, ...(q.platform ? { platform: q.platform } : {}), ...(q.userId !== undefined ? { userId: q.userId } : {}) };
  const [items, total] = await managerOf(ex).findAndCount(PushDevice, {
    where,
    order: { createdAt: 'ASC', id: 'ASC' },
    skip: q.offset,
    take: q.limit,
  });
  return { items, total };
}

export interface DeviceChanges {
  /** undefined: unchanged; null: cleared */
  userId?: string | null;
  /** replaces the stored object when given */
  deviceMetadata?: Record<string, unknown>;
}

/** Changes userId / deviceMetadata; null when there is no such device. */
export async function updateDevice(ex: Executor, id: string, changes: DeviceChanges): Promise<DeviceRow | null> {
  const m = managerOf(ex);
  const set: Partial<PushDevice> = {};
  if (changes.userId !== undefined) set.userId = changes.userId;
  if (changes.deviceMetadata !== undefined) set.deviceMetadata = changes.deviceMetadata;
  if (Object.keys(set).length) {
    await m.update(PushDevice, { id }, { ...set, updatedAt: () => 'now()' } as object);
  }
  return m.findOne(PushDevice, { where: { id } });
}

/** true when a device was deleted. */
export async function deleteDevice(ex: Executor, id: string): Promise<boolean> {
  const result = await managerOf(ex).delete(PushDevice, { id });
  return (result.affected ?? 0) > 0;
}

export type NewDeviceRow = Pick<PushDevice, 'id' | 'appId' | 'deviceToken' | 'platform' | 'deviceMetadata'>;

/** New devices (no user, active), in one statement: for many rows at once. */
export async function insertDeviceRows(ex: Executor, rows: NewDeviceRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof NewDeviceRow>(k: K) => rows.map((r) => r[k]);
  await sql(
    ex,
    `INSERT INTO push_devices (id, app_id, device_token, platform, device_metadata)
     SELECT d.id, d.app_id, d.device_token, d.platform, d.device_metadata
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[]) AS d(id, app_id, device_token, platform, device_metadata)`,
    [col('id'), col('appId'), col('deviceToken'), col('platform'), rows.map((r) => JSON.stringify(r.deviceMetadata))],
  );
}

/** Marks a device active or not (as a dead token does); false when there is no such device. */
export async function setDeviceActive(ex: Executor, id: string, isActive: boolean): Promise<boolean> {
  const result = await managerOf(ex).update(PushDevice, { id }, { isActive, updatedAt: () => 'now()' } as object);
  return (result.affected ?? 0) > 0;
}

/** Active devices of `appId` that match `filter`: one query, the filter compiled to parameters. */
export async function countSegmentDevices(ex: Executor, appId: string, filter: SegmentFilter): Promise<number> {
  const q = segmentDeviceQuery(filter, appId, { alias: 'd' });
  const { rows } = await sql<{ count: number }>(ex, `SELECT count(*)::int AS count FROM push_devices d WHERE ${q.whereSql}`, q.params);
  return rows[0].count;
}
