// The campaign workflow's commands (through activities/push/campaign.ts): the workflow is
// the campaign's writer once it left Draft. Each is idempotent, as a retried activity needs.
import type { Db, Executor } from '../../db/db';
import {
  campaignSend,
  closeCampaignSend,
  findCampaign,
  insertCampaignSend,
  sentCount,
  transitionCampaign,
} from '../../db/repositories/push-campaigns';
import { audienceFilter } from './campaign';
import { isFinished } from './campaign.rules';
import type { BeginResult, FinishResult } from './types';

/**
 * Sending starts: the audience snapshot (the segment evaluated now) as the campaign's
 * send, and the campaign `Sending`, in one transaction under the campaign's row lock. A
 * repeat (a retried activity) finds the send the first call made (one send per campaign:
 * unique push_sends.campaign_id) and answers it again.
 */
export async function beginCampaignSend(db: Db, campaignId: string): Promise<BeginResult> {
  return db.transaction(async (m) => {
    const c = await findCampaign(m, campaignId, { lock: true });
    if (!c) return { kind: 'gone' } as const;
    const existing = await campaignSend(m, campaignId);
    if (existing) return { kind: 'sending', ...existing } as const;
    if (isFinished(c.status)) return { kind: 'finished', status: c.status } as const;
    const filter = await audienceFilter(m, c);
    if (filter === undefined) {
      await transitionCampaign(m, campaignId, ['Queued', 'Scheduled'], 'Failed', { failureReason: 'its segment no longer exists', finished: true });
      return { kind: 'finished', status: 'Failed' } as const;
    }
    const send = await insertCampaignSend(m, c, filter);
    await transitionCampaign(m, campaignId, ['Queued', 'Scheduled'], 'Sending', { sendId: send.sendId, recipients: send.total, started: true });
    return { kind: 'sending', ...send } as const;
  });
}

/** A reschedule reached the workflow while it waits: the row's new time. False: no longer Scheduled. */
export async function rescheduleCampaign(executor: Executor, campaignId: string, scheduledAt: Date): Promise<boolean> {
  return (await transitionCampaign(executor, campaignId, ['Scheduled'], 'Scheduled', { scheduledAt })) !== null;
}

/**
 * The campaign ends as `to`: Completed after its last page; Cancelled (rows not pushed
 * become `cancelled`); Failed (rows not pushed become `failed` with `reason`). A repeat
 * finds it finished and answers the same.
 */
export async function finishCampaign(db: Db, campaignId: string, to: 'Completed' | 'Cancelled' | 'Failed', reason?: string): Promise<FinishResult> {
  return db.transaction(async (m) => {
    const c = await findCampaign(m, campaignId, { lock: true });
    if (!c) return { status: null, sent: 0 };
    const send = await campaignSend(m, campaignId);
    // after the last page no row is queued; after a cancel or a failure, those not pushed
    const sent = send
      ? await closeCampaignSend(m, send.sendId, to === 'Cancelled' ? { status: 'cancelled' } : { status: 'failed', error: reason ?? 'not sent' })
      : 0;
    if (isFinished(c.status)) return { status: c.status, sent };
    const moved = await transitionCampaign(m, campaignId, c.status === 'Draft' ? [] : ['Queued', 'Scheduled', 'Sending'], to, {
      finished: true,
      ...(to === 'Failed' ? { failureReason: reason ?? 'the fan-out could not finish' } : {}),
    });
    return { status: moved?.status ?? c.status, sent };
  });
}

