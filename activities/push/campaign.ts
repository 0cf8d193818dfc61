// The campaign workflow's own activities (workflows/campaign/contract.ts); its pages go
// through the send's page activity (send-page.ts), registered beside these.
import type { Db } from '../../db/db';
import { beginCampaignSend, finishCampaign, rescheduleCampaign } from '../../domain/push/campaign-run';
import type { CampaignActivities } from '../../workflows/campaign/contract';
import { withDomainFailures } from '../failures';
import { heartbeating } from '../heartbeat';

// Each step beats while it runs (a 10,000-device snapshot is one statement of seconds): the
// workflow's heartbeat timeout then retries a step whose worker died within seconds, not
// after its 5-minute start-to-close time (the push fault run kills the worker mid-step).
export function createCampaignActivities(deps: { db: Db }): Omit<CampaignActivities, 'sendPushPage'> {
  const { db } = deps;
  return withDomainFailures({
    beginCampaignSend: ({ campaignId }: { campaignId: string }) => heartbeating(() => beginCampaignSend(db, campaignId)),
    rescheduleCampaign: ({ campaignId, scheduledAt }: { campaignId: string; scheduledAt: string }) =>
      heartbeating(() => rescheduleCampaign(db, campaignId, new Date(scheduledAt))),
    finishCampaign: ({ campaignId, status, reason }: { campaignId: string; status: 'Completed' | 'Cancelled' | 'Failed'; reason?: string }) =>
      heartbeating(() => finishCampaign(db, campaignId, status, reason)),
  });
}
