// Pure decisions of the campaign workflow, shared with tests and docs/push.md's arithmetic.
import type { PushPageInput, PushSendTotals } from '../push-send/contract';
import type { CampaignChangeReply, CampaignPhase } from './contract';
import { PUSH_PAGE_SIZE } from '../push-send/push-send.logic';

export { PUSH_PAGE_SIZE, addPage, NO_TOTALS, PAGE_MAX_ATTEMPTS } from '../push-send/push-send.logic';

/** The one state of a campaign run, owned by campaign.workflow.ts (its state table is there). */
export interface CampaignState {
  phase: CampaignPhase;
  /** the time a scheduled campaign waits for (epoch ms); null once it is not waiting for one */
  scheduledAt: number | null;
  /** reschedule Updates still writing the row: the time does not fire under them */
  rescheduling: number;
  cancelRequested: boolean;
  /** the answer a cancel waits for, once the campaign has finished */
  reply: CampaignChangeReply | null;
  /** what this and earlier runs' pages pushed */
  totals: PushSendTotals;
}

/**
 * Page activities of one campaign in flight at once. Any push worker takes them from the
 * task queue, so two workers share a campaign; each worker itself runs at most
 * PUSH_PAGES_IN_FLIGHT pages (workers/queue-push.ts).
 */
export const PAGES_IN_FLIGHT = 8;

/**
 * Pages per workflow run before it continues as new. A page costs at most 6 events
 * (activity scheduled/started/completed, and a workflow task of 3 when its completion
 * wakes the workflow alone), so a run stays under 400 × 6 + ~30 ≈ 2,430 events; a
 * million devices are 2,000 pages, 5 runs.
 */
export const PAGES_PER_RUN = 400;

export const pageCount = (total: number): number => Math.ceil(total / PUSH_PAGE_SIZE);

/** Page `page` (from 0) of a snapshot with dense positions 0..N-1. */
export function pageInput(sendId: string, page: number): PushPageInput {
  return { sendId, afterPosition: page * PUSH_PAGE_SIZE - 1, limit: PUSH_PAGE_SIZE };
}

/** The page after the last one this run sends (from `nextPage`). */
export const runEnd = (nextPage: number, pages: number): number => Math.min(nextPage + PAGES_PER_RUN, pages);

/**
 * A waiting campaign continues as new once its history passes this many events: each
 * reschedule costs ~12 (the update, its activity, two workflow tasks), so a campaign
 * rescheduled hundreds of times keeps a small history too.
 */
export const WAIT_HISTORY_LIMIT = 2_000;
