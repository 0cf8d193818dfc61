import type { Executor } from '../../db/db';
import { listPushApiKeys } from '../../db/repositories/push-api-keys';
import { deletePushApp } from '../../db/repositories/push-apps';
import { liveCampaignIds } from '../../db/repositories/push-campaigns';
import { LIVE_STATUSES } from './campaign.rules';
import type { RevokeKeyMarkers } from './types';

/**
 * Deletes an app. Its keys are refused from the next request on in every process first
 * (`revokeMarkers`, the caller's key cache); devices, keys, segments, campaigns, sends and
 * notifications go with the app (ON DELETE CASCADE). Answers the campaigns that were
 * queued, scheduled or sending: the caller stops their workflows (docs/push.md: deleting
 * an app cancels its scheduled and running campaigns); a campaign workflow that finds its
 * campaign gone ends without sending anyway.
 */
export async function deleteApp(executor: Executor, appId: string, revokeMarkers: RevokeKeyMarkers): Promise<{ liveCampaignIds: string[] }> {
  await revokeMarkers((await listPushApiKeys(executor, appId)).map((k) => k.id));
  const campaigns = await liveCampaignIds(executor, appId, LIVE_STATUSES);
  await deletePushApp(executor, appId);
  return { liveCampaignIds: campaigns };
}
