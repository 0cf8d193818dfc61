// The campaign's states and which command each admits (docs/push.md, "Campaigns"):
//   Draft → Queued (send) | Scheduled (schedule) → Sending → Completed | Cancelled | Failed
// A Draft is changed by the API alone (no workflow yet); from Queued or Scheduled on, the
// campaign's workflow is its writer, so a change goes to it.
import { campaignFinished, campaignNotDraft, scheduledAtNotInFuture, scheduledAtTooFar } from './errors';
import type { CampaignStatus } from './types';

/** The states nothing leaves. */
export const FINISHED_STATUSES: readonly CampaignStatus[] = ['Completed', 'Cancelled', 'Failed'];
export const isFinished = (s: CampaignStatus): boolean => FINISHED_STATUSES.includes(s);

/** The states in which a campaign's workflow may run (or wait in the outbox to start). */
export const LIVE_STATUSES: readonly CampaignStatus[] = ['Queued', 'Scheduled', 'Sending'];

export type CampaignCommand = 'send' | 'schedule' | 'cancel';

/**
 * Who carries out `command` on a campaign in `status`: the API on a Draft (a
 * compare-and-set from Draft), the campaign's workflow once it has one; anything else is
 * a conflict (sending twice, changing a finished campaign).
 */
export function routeOf(status: CampaignStatus, command: CampaignCommand, campaignId: string): 'draft' | 'workflow' {
  if (status === 'Draft') return 'draft';
  if (isFinished(status)) {
    throw campaignFinished(campaignId, status);
  }
  if (command === 'cancel') return 'workflow';
  if (command === 'schedule' && status === 'Scheduled') return 'workflow';
  const why =
    command === 'send' && status === 'Scheduled'
      ? 'is scheduled; reschedule or cancel it'
      : `is ${status}: it was sent already`;
  throw campaignNotDraft(campaignId, why, status);
}

/** How far ahead a campaign may be scheduled: a year (and a day), not the year 9999. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

/**
 * A scheduled time must lie ahead of `now` (a timestamp already past would send at once,
 * unasked) and at most MAX_SCHEDULE_AHEAD_MS after it.
 */
export function checkScheduledAt(scheduledAt: Date, now: Date): void {
  if (!(scheduledAt.getTime() > now.getTime())) {
    throw scheduledAtNotInFuture();
  }
  if (scheduledAt.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS) {
    throw scheduledAtTooFar();
  }
}
