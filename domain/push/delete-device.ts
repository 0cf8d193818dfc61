import type { Executor } from '../../db/db';
import { deleteDevice as deleteDeviceRow } from '../../db/repositories/push-devices';

/** Deletes a device; one already gone is no refusal (DELETE answers 204 either way). */
export async function deleteDevice(executor: Executor, deviceId: string): Promise<void> {
  await deleteDeviceRow(executor, deviceId);
}
