import type { Executor } from '../../db/db';
import { updateDevice as updateDeviceRow, type DeviceChanges } from '../../db/repositories/push-devices';
import type { DeviceRow } from './types';
import { deviceNotFound } from './errors';

/** Changes a device's userId / deviceMetadata; device_not_found when it is gone. */
export async function updateDevice(executor: Executor, deviceId: string, changes: DeviceChanges): Promise<DeviceRow> {
  const updated = await updateDeviceRow(executor, deviceId, changes);
  if (!updated) throw deviceNotFound(deviceId);
  return updated;
}
