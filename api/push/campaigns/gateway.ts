// The layer between the campaign routes and Temporal. Send and schedule of a Draft are
// domain/push/campaign.ts commands with the campaign's workflow, `campaign/<id>` on the
// `push` queue, as their outbox entry. A reschedule or a cancel of a campaign that has its
// workflow is an Update to it (the workflow writes the row); while the workflow's entry
// still waits in the outbox, the Update starts it (update-with-start of the entry's own
// input), so a change never waits for the dispatcher nor gets lost before it.
import type { UpdateDefinition } from '@temporalio/common';
import { findCampaign } from '../../../db/repositories/push-campaigns';
import { cancelDraft, scheduleDraft, sendCampaign } from '../../../domain/push/campaign';
import { campaignNotFound } from '../../../domain/push/errors';
import { isFinished, routeOf } from '../../../domain/push/campaign.rules';
import type { CampaignRecord } from '../../../domain/push/types';
import { DomainError } from '../../../domain/errors';
import {
  campaignWorkflowId,
  campaignWorkflowStart,
  cancelUpdate,
  FINISHING,
  NOT_SCHEDULED,
  rescheduleUpdate,
  type CampaignChangeReply,
} from '../../../workflows/campaign/contract';
import type { AppDeps } from '../../deps';
import type { IdempotencyState } from '../../kit/idempotency';
import { updateWorkflow } from '../../kit/workflow-update';

/** The outbox entry of a campaign's workflow, with search attributes when the server has them. */
const workflowOf = (deps: AppDeps) => campaignWorkflowStart(deps.config.temporalSearchAttributes);

export async function send(deps: AppDeps, c: CampaignRecord, idem?: IdempotencyState) {
  if (idem?.resourceId !== c.id) routeOf(c.status, 'send', c.id);
  const { campaign, estimatedRecipients } = await sendCampaign(deps.db, c.id, workflowOf(deps), idem);
  return { campaignId: campaign.id, status: 'Queued' as const, estimatedRecipients };
}

/** Schedules a Draft, or moves a Scheduled campaign's timer; answers the campaign as stored. */
export async function schedule(deps: AppDeps, c: CampaignRecord, scheduledAt: Date): Promise<CampaignRecord> {
  if (routeOf(c.status, 'schedule', c.id) === 'draft') {
    try {
      return await scheduleDraft(deps.db, c.id, scheduledAt, new Date(), workflowOf(deps));
    } catch (err) {
      // it left Draft meanwhile (scheduled by another request): move its timer instead
      if (!(err instanceof DomainError && err.code === 'campaign_not_draft')) throw err;
      return schedule(deps, await stored(deps, c.id), scheduledAt);
    }
  }
  await change(deps, c.id, rescheduleUpdate, [{ scheduledAt: scheduledAt.toISOString() }]);
  return stored(deps, c.id);
}

/** Cancels a campaign; answers it as stored and how many of its devices were pushed. */
export async function cancel(deps: AppDeps, c: CampaignRecord): Promise<{ campaign: CampaignRecord; alreadySent: number }> {
  if (routeOf(c.status, 'cancel', c.id) === 'draft') {
    const cancelled = await cancelDraft(deps.db, c.id);
    // it left Draft meanwhile (sent or scheduled by another request): its workflow cancels it
    return cancelled ? { campaign: cancelled, alreadySent: 0 } : cancel(deps, await stored(deps, c.id));
  }
  const reply = await change(deps, c.id, cancelUpdate, []);
  return { campaign: await stored(deps, c.id), alreadySent: reply.sent };
}

async function stored(deps: AppDeps, campaignId: string): Promise<CampaignRecord> {
  const c = await findCampaign(deps.db, campaignId);
  if (!c) throw campaignNotFound(campaignId);
  return c;
}

/**
 * An Update to the campaign's workflow (api/kit/workflow-update.ts), which writes the row.
 * A time in the past is its validator's 400. A workflow that has ended, and its
 * refusals "no longer scheduled" and "finishing", are answered from the stored row: the
 * answer names the status the row has by then (what a GET right after shows), which the
 * workflow's phase does not know, so the row is read after the refusal rather than the
 * refusal carrying a status.
 */
function change<Args extends unknown[]>(
  deps: AppDeps,
  campaignId: string,
  update: UpdateDefinition<CampaignChangeReply, Args>,
  args: Args,
): Promise<CampaignChangeReply> {
  return updateWorkflow(deps, {
    workflowId: campaignWorkflowId(campaignId),
    update,
    args,
    answeredFromRow: [NOT_SCHEDULED, FINISHING],
    onEnded: async ({ refusal }) => {
      throw answerFromRow(await stored(deps, campaignId), refusal?.message ?? 'The campaign has finished');
    },
  });
}

/** The refusal of a change the workflow could not take, in the stored row's words. */
function answerFromRow(c: CampaignRecord, message: string): DomainError {
  if (isFinished(c.status)) return new DomainError('conflict', 'campaign_finished', `Campaign '${c.id}' is ${c.status}; it cannot change any more`);
  return new DomainError('conflict', 'campaign_not_scheduled', `Campaign '${c.id}' is ${c.status}: ${message}`);
}
