// The layer between the campaign routes and Temporal. Send and schedule of a Draft are
// domain/push/campaign.ts commands with the campaign's workflow, `campaign/<id>` on the
// `push` queue, as their outbox entry. A reschedule or a cancel of a campaign that has its
// workflow is an Update to it (the workflow writes the row); while the workflow's entry
// still waits in the outbox, the Update starts it (update-with-start of the entry's own
// input), so a change never waits for the dispatcher nor gets lost before it.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { findCampaign } from '../../../db/repositories/push-campaigns';
import type { OutboxStart } from '../../../db/repositories/workflow-starts';
import { cancelDraft, scheduleDraft, sendCampaign } from '../../../domain/push/campaign';
import { campaignNotFound } from '../../../domain/push/errors';
import { isFinished, routeOf } from '../../../domain/push/campaign.rules';
import type { CampaignRecord } from '../../../domain/push/types';
import { DomainError } from '../../../domain/errors';
import {
  CAMPAIGN_WORKFLOW_TYPE,
  cancelUpdate,
  campaignWorkflowId,
  FINISHING,
  NOT_SCHEDULED,
  PAST_TIME,
  PUSH_QUEUE,
  rescheduleUpdate,
  type CampaignChangeReply,
  type CampaignInput,
} from '../../../workflows/campaign/contract';
import type { AppDeps } from '../../deps';
import { isEndedWorkflow, updateEntityWorkflow } from '../../kit/entity-update';
import { AppError, errors } from '../../kit/errors';
import type { IdempotencyState } from '../../kit/idempotency';

/**
 * Temporal calls of a request end within this many ms, the answer a second later at the
 * most (lib/temporal/deadline.ts; then 503): under the 10 s every answer must keep, with
 * room for the request's database reads on a loaded machine. A cancel that timed out may
 * still take effect (the workflow accepted it): GET shows it.
 */
const TEMPORAL_DEADLINE_MS = 6000;

/** A campaign's entry in the workflow-start outbox: its ids, time and search attributes. */
export function campaignWorkflowStart(deps: AppDeps) {
  return (c: CampaignRecord): OutboxStart => {
    const searchAttributes = deps.config.temporalSearchAttributes;
    const input: CampaignInput = {
      campaignId: c.id,
      appId: c.appId,
      scheduledAt: c.status === 'Scheduled' && c.scheduledAt ? new Date(c.scheduledAt).toISOString() : null,
      searchAttributes,
    };
    return {
      workflowId: campaignWorkflowId(c.id),
      workflowType: CAMPAIGN_WORKFLOW_TYPE,
      taskQueue: PUSH_QUEUE,
      args: [input],
      // none on servers without them
      searchAttributes: searchAttributes ? { PushAppId: [c.appId], CampaignStatus: [c.status] } : undefined,
    };
  };
}

export async function send(deps: AppDeps, c: CampaignRecord, idem?: IdempotencyState) {
  if (idem?.resourceId !== c.id) routeOf(c.status, 'send', c.id);
  const { campaign, estimatedRecipients } = await sendCampaign(deps.db, c.id, campaignWorkflowStart(deps), idem);
  return { campaignId: campaign.id, status: 'Queued' as const, estimatedRecipients };
}

/** Schedules a Draft, or moves a Scheduled campaign's timer; answers the campaign as stored. */
export async function schedule(deps: AppDeps, c: CampaignRecord, scheduledAt: Date): Promise<CampaignRecord> {
  if (routeOf(c.status, 'schedule', c.id) === 'draft') {
    try {
      return await scheduleDraft(deps.db, c.id, scheduledAt, new Date(), campaignWorkflowStart(deps));
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
 * An Update to the campaign's workflow. Its refusals are 409s; a workflow that has ended
 * is answered from the stored row (a finished campaign: 409); a workflow not started yet
 * is started with the change from its pending outbox entry.
 */
async function change<Args extends unknown[]>(
  deps: AppDeps,
  campaignId: string,
  update: UpdateDefinition<CampaignChangeReply, Args>,
  args: Args,
): Promise<CampaignChangeReply> {
  try {
    return await updateEntityWorkflow(deps, {
      workflowId: campaignWorkflowId(campaignId),
      workflowType: CAMPAIGN_WORKFLOW_TYPE,
      update,
      args,
      deadlineMs: TEMPORAL_DEADLINE_MS,
    });
  } catch (err) {
    if (err instanceof AppError || err instanceof DomainError) throw err;
    const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (failure instanceof ApplicationFailure) {
      if (failure.type === PAST_TIME) throw errors.validation(failure.message, { scheduledAt: [failure.message] });
      if (failure.type === NOT_SCHEDULED || failure.type === FINISHING) throw answerFromRow(await stored(deps, campaignId), failure.message);
    }
    if (isEndedWorkflow(err)) throw answerFromRow(await stored(deps, campaignId), 'The campaign has finished');
    deps.logger.error({ err, campaignId }, 'campaign change failed');
    throw errors.unavailable();
  }
}

/** The refusal of a change the workflow could not take, in the stored row's words. */
function answerFromRow(c: CampaignRecord, message: string): AppError {
  if (isFinished(c.status)) return errors.conflict('campaign_finished', `Campaign '${c.id}' is ${c.status}; it cannot change any more`);
  return errors.conflict('campaign_not_scheduled', `Campaign '${c.id}' is ${c.status}: ${message}`);
}
