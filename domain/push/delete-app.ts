import type { Executor } from '../../db/db';
import { listPushApiKeys } from '../../db/repositories/push-api-keys';
import { deletePushApp } from '../../db/repositories/push-apps';
import type { RevokeKeyMarkers } from './types';

/**
 * Deletes an app. Its keys are refused from the next request on in every process first
 * (`revokeMarkers`, the caller's key cache); devices, keys, segments, sends and
 * notifications go with the app (ON DELETE CASCADE).
 */
export async function deleteApp(executor: Executor, appId: string, revokeMarkers: RevokeKeyMarkers): Promise<void> {
  await revokeMarkers((await listPushApiKeys(executor, appId)).map((k) => k.id));
  await deletePushApp(executor, appId);
}
