import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { isForeignKeyViolation } from '../../db/pg-errors';
import { registerDevice as upsertDevice } from '../../db/repositories/push-devices';
import type { DeviceRow } from './types';
import { appNotFound } from './errors';
import type { Platform } from './types';

export interface DeviceRegistration {
  appId: string;
  deviceToken: string;
  platform: Platform;
  /** undefined: keep the stored value; null: clear it */
  userId?: string | null;
  /** replaces the stored object when given */
  deviceMetadata?: Record<string, unknown>;
}

/**
 * The SDK's registration on every launch: an upsert by (app, device token). Refuses with
 * app_not_found when the app was deleted under it (its keys went with it).
 */
export async function registerDevice(executor: Executor, d: DeviceRegistration): Promise<{ device: DeviceRow; created: boolean }> {
  return upsertDevice(executor, { id: randomUUID(), ...d }).catch((err) => {
    if (isForeignKeyViolation(err)) throw appNotFound(d.appId);
    throw err;
  });
}
