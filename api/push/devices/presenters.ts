import type { DeviceRow } from '../../../domain/push/types';
import type { DeviceResponse } from './schema';

/** The Device object of Document 3. */
export function presentDevice(d: DeviceRow): DeviceResponse {
  return {
    id: d.id,
    appId: d.appId,
    deviceToken: d.deviceToken,
    platform: d.platform,
    userId: d.userId,
    deviceMetadata: d.deviceMetadata as DeviceResponse['deviceMetadata'],
    isActive: d.isActive,
    lastSeenAt: new Date(d.lastSeenAt).toISOString(),
    createdAt: new Date(d.createdAt).toISOString(),
  };
}
