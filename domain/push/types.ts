// Record types the push code shares: the routes, the commands and the repositories.
import type { Platform } from '../../lib/push/platform';

export type { Platform };

/** An app as the API needs it: never the sealed credentials themselves, only whether they are set. */
export interface PushAppRecord {
  id: string;
  companyId: string;
  name: string;
  bundleId: string;
  platform: Platform;
  hasFcmConfig: boolean;
  hasApnsConfig: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Drops revoked keys from every process's key cache (the HTTP layer's Redis markers). */
export type RevokeKeyMarkers = (keyIds: string[]) => Promise<void>;
