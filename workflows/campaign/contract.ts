// What callers know about a campaign's workflow: its id, queue, input, result, updates
// and activities. The API imports this file, never the implementation. Inputs, results
// and replies carry ids, times and counts only: the audience and its tokens stay in
// Postgres, read by the activities.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { BeginResult, CampaignRecord, CampaignStatus, FinishResult } from '../../domain/push/types';
import { PUSH_QUEUE, type PushSendActivities, type PushSendTotals } from '../push-send/contract';
import type { WorkflowStartEntry } from '../start-entry';

export type { CampaignStatus, BeginResult, FinishResult, PushSendTotals };
export { PUSH_QUEUE } from '../push-send/contract';

export const CAMPAIGN_WORKFLOW_TYPE = 'campaignWorkflow';

/** One workflow per campaign, started once (REJECT_DUPLICATE) from the outbox. */
export const campaignWorkflowId = (campaignId: string) => `campaign/${campaignId}`;

export interface CampaignInput {
  campaignId: string;
  appId: string;
  /** ISO time to send at (a scheduled campaign); absent: send at once */
  scheduledAt?: string | null;
  /** the server knows PushAppId and CampaignStatus: upsert CampaignStatus as it changes */
  searchAttributes?: boolean;
  /** a continued run (continue-as-new) of a campaign already sending */
  resume?: CampaignResume;
}

export interface CampaignResume {
  sendId: string;
  /** devices in the audience snapshot */
  total: number;
  /** the first page this run sends; every page before it is done */
  nextPage: number;
  totals: PushSendTotals;
}

/** What the workflow ended with. `Gone`: the campaign was deleted (with its app). */
export interface CampaignResult {
  status: CampaignStatus | 'Gone';
  sent: number;
  failed: number;
  pages: number;
}

/** The answer to a reschedule or a cancel. */
export interface CampaignChangeReply {
  status: CampaignStatus;
  /** devices already pushed (a cancel during sending) */
  sent: number;
}

/** A Scheduled campaign's timer moves to `scheduledAt` (ISO, in the future). Refused once sending started. */
export const rescheduleUpdate = defineUpdate<CampaignChangeReply, [{ scheduledAt: string }]>('reschedule');
/** Cancels a waiting campaign at once, a sending one after the pages in flight; refused once finishing. */
export const cancelUpdate = defineUpdate<CampaignChangeReply, []>('cancel');

export type CampaignPhase = 'waiting' | 'starting' | 'sending' | 'finishing' | 'done';
export const campaignStateQuery = defineQuery<{ phase: CampaignPhase; scheduledAt: string | null; pagesDone: number }>('state');

/** The codes the updates refuse with (workflows/refusal.ts): conflicts (409), PAST_TIME invalid (400, on `scheduledAt`). */
export const NOT_SCHEDULED = 'campaign_not_scheduled';
export const FINISHING = 'campaign_finished';
export const PAST_TIME = 'scheduled_at_not_in_future';

export interface CampaignActivities extends Pick<PushSendActivities, 'sendPushPage'> {
  /** the audience snapshot and `Sending` (idempotent: a repeat answers the same send) */
  beginCampaignSend(input: { campaignId: string }): Promise<BeginResult>;
  /** the row's new scheduled time (while Scheduled) */
  rescheduleCampaign(input: { campaignId: string; scheduledAt: string }): Promise<boolean>;
  /** Completed, Cancelled or Failed, with the send's unsent rows closed; answers the devices pushed */
  finishCampaign(input: { campaignId: string; status: 'Completed' | 'Cancelled' | 'Failed'; reason?: string }): Promise<FinishResult>;
}

/**
 * A campaign's entry in the workflow-start outbox (its ids, time and, on a server that has
 * them, `searchAttributes`: config `temporalSearchAttributes`), for the domain commands
 * that send or schedule it (domain/push/campaign.ts).
 */
export function campaignWorkflowStart(searchAttributes: boolean) {
  return (c: Pick<CampaignRecord, 'id' | 'appId' | 'status' | 'scheduledAt'>): WorkflowStartEntry<CampaignInput> => ({
    workflowId: campaignWorkflowId(c.id),
    workflowType: CAMPAIGN_WORKFLOW_TYPE,
    taskQueue: PUSH_QUEUE,
    args: [
      {
        campaignId: c.id,
        appId: c.appId,
        scheduledAt: c.status === 'Scheduled' && c.scheduledAt ? new Date(c.scheduledAt).toISOString() : null,
        searchAttributes,
      },
    ],
    searchAttributes: searchAttributes ? { PushAppId: [c.appId], CampaignStatus: [c.status] } : undefined,
  });
}
