// The rules of a direct send: which of a request's deviceIds it goes to.
import type { Platform } from './types';

export type { Platform };

export interface SendDevice {
  id: string;
  platform: Platform;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids worth looking up: well-formed device ids, lower-cased, each once. */
export function candidateDeviceIds(deviceIds: string[]): string[] {
  return [...new Set(deviceIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
}

/**
 * The accepted devices, in request order: those among `sendable` (the app's active
 * devices), each once (a repeated id is rejected, so no device gets the message twice).
 * Anything else is rejected.
 */
export function acceptDevices(deviceIds: string[], sendable: Map<string, Platform>): SendDevice[] {
  const seen = new Set<string>();
  const accepted: SendDevice[] = [];
  for (const raw of deviceIds) {
    const id = raw.toLowerCase();
    const platform = sendable.get(id);
    if (!platform || seen.has(id)) continue;
    seen.add(id);
    accepted.push({ id, platform });
  }
  return accepted;
}
