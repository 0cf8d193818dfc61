// The campaign workflow's own activities (workflows/campaign/contract.ts); its pages go
// through the send's page activity (send-page.ts), registered beside these.
import type { Db } from '../../db/db';
import { beginCampaignSend, finishCampaign, rescheduleCampaign } from '../../domain/push/campaign-run';
import type { CampaignActivities } from '../../workflows/campaign/contract';
import { withDomainFailures } from '../failures';

export function createCampaignActivities(deps: { db: Db }): Omit<CampaignActivities, 'sendPushPage'> {
  const { db } = deps;
  return withDomainFailures({
    beginCampaignSend: ({ campaignId }: { campaignId: string }) => beginCampaignSend(db, campaignId),
    rescheduleCampaign: ({ campaignId, scheduledAt }: { campaignId: string; scheduledAt: string }) =>
      rescheduleCampaign(db, campaignId, new Date(scheduledAt)),
    finishCampaign: ({ campaignId, status, reason }: { campaignId: string; status: 'Completed' | 'Cancelled' | 'Failed'; reason?: string }) =>
      finishCampaign(db, campaignId, status, reason),
  });
}
