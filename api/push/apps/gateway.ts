// Deleting an app, and what Temporal must hear of it: the workflows of its campaigns that
// were queued, scheduled or sending are cancelled (their pending outbox entries dropped
// first), so a scheduled campaign of a deleted app never wakes to send.
import { WorkflowNotFoundError } from '@temporalio/common';
import { forgetWorkflowStarts } from '../../../db/repositories/workflow-starts';
import { deleteApp } from '../../../domain/push/delete-app';
import { requestDeadline } from '../../../lib/temporal/deadline';
import { campaignWorkflowId } from '../../../workflows/campaign/contract';
import type { AppDeps } from '../../deps';
import { pushApiKeys } from '../auth';

export async function deleteAppAndCampaigns(deps: AppDeps, appId: string): Promise<void> {
  const { liveCampaignIds } = await deleteApp(deps.db, appId, (keyIds) => pushApiKeys(deps).revoke(keyIds));
  const ids = liveCampaignIds.map(campaignWorkflowId);
  await forgetWorkflowStarts(deps.db, ids);
  // best effort, and bounded by the request's one deadline (Temporal may be down): a
  // workflow this misses finds its campaign gone when it wakes and ends without sending
  const within = requestDeadline(deps.temporal);
  await Promise.all(
    ids.map((id) =>
      within(() => deps.temporal.workflow.getHandle(id).cancel()).catch((err) => {
        if (!(err instanceof WorkflowNotFoundError)) deps.logger.warn({ err, workflowId: id }, 'cancelling a deleted app campaign failed');
      }),
    ),
  );
}
