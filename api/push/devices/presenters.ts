import type { DeviceRow } from '../../../domain/push/types';
import type { DeviceResponse } from './schema';
import { iso } from '../../kit/dates';

/** The Device object of the push spec. */
export function presentDevice(d: DeviceRow): DeviceResponse {
  return {
    id: d.id,
    appId: d.appId,
    deviceToken: d.deviceToken,
    platform: d.platform,
    userId: d.userId,
    deviceMetadata: d.deviceMetadata as DeviceResponse['deviceMetadata'],
    isActive: d.isActive,
    lastSeenAt: iso(d.lastSeenAt),
    createdAt: iso(d.createdAt),
  };
}
