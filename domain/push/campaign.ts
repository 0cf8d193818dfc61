// The API's campaign commands: create a Draft, send it or schedule it (the status change
// and the workflow's outbox entry in one transaction: the compare-and-set from Draft makes
// a second send a conflict, never a second workflow), cancel a Draft. Changes to a
// campaign that has its workflow go to the workflow (api/push/campaigns/gateway.ts).
import type { Db, Executor } from '../../db/db';
import { isForeignKeyViolation } from '../../db/pg-errors';
import { countAudience, findCampaign, insertCampaign, transitionCampaign, type NewCampaign } from '../../db/repositories/push-campaigns';
import { findSegment } from '../../db/repositories/push-segments';
import { bindIdempotencyResource } from '../../db/repositories/idempotency-keys';
import { enqueueWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import type { SegmentFilter } from './segment-filter.rules';
import { checkScheduledAt, routeOf } from './campaign.rules';
import type { CampaignRecord, CampaignStatus } from './types';
import { appNotFound, campaignNotDraft, campaignNotFound, idempotencyRequestInProgress, segmentNotFound } from './errors';
import type { SendIdempotency } from './send';

/**
 * Under an Idempotency-Key the created or sent campaign's id is written on the key in the
 * transaction that creates or sends it, so a retry after a lost answer (the request died
 * after its commit and the key's lease lapsed) answers that campaign again instead of a
 * second Draft or a 409 (docs/api-kit.md, "Idempotency-Key").
 */
async function bindKey(m: Executor, idem: SendIdempotency | undefined, campaignId: string): Promise<void> {
  if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, campaignId))) {
    throw idempotencyRequestInProgress();
  }
}

/** A new Draft; a Segment campaign's segment must be one of the app's. */
export async function createCampaign(db: Db, c: NewCampaign, idem?: SendIdempotency): Promise<CampaignRecord> {
  if (idem?.resourceId) {
    const earlier = await findCampaign(db, idem.resourceId);
    if (earlier && earlier.appId === c.appId) return earlier;
  }
  if (c.targetType === 'Segment') {
    const segment = c.segmentId ? await findSegment(db, c.segmentId) : null;
    if (!segment || segment.appId !== c.appId) throw segmentNotFound(c.segmentId ?? '');
  }
  const row = { ...c, segmentId: c.targetType === 'Segment' ? c.segmentId : null };
  return db
    .transaction(async (m) => {
      const created = await insertCampaign(m, row);
      await bindKey(m, idem, created.id);
      return created;
    })
    .catch((err) => {
      if (isForeignKeyViolation(err)) throw appNotFound(c.appId);
      throw err;
    });
}

/** The filter of a campaign's audience: its segment's, or null for `All`; undefined when its segment is gone. */
export async function audienceFilter(executor: Executor, c: CampaignRecord): Promise<SegmentFilter | null | undefined> {
  if (c.targetType === 'All') return null;
  const segment = c.segmentId ? await findSegment(executor, c.segmentId) : null;
  return segment && segment.appId === c.appId ? segment.filter : undefined;
}

/** How many active devices the campaign would reach if it were sent now. */
export async function estimateRecipients(executor: Executor, c: CampaignRecord): Promise<number> {
  const filter = await audienceFilter(executor, c);
  return filter === undefined ? 0 : countAudience(executor, c.appId, filter);
}

/** How the campaign's workflow is to be started (the gateway knows the workflow's names). */
export type CampaignWorkflowOf = (c: CampaignRecord) => OutboxStart;

/**
 * Draft → `to` (Queued or Scheduled) and the campaign's workflow in the outbox, in one
 * transaction. Refused (409) when the campaign is no Draft any more, e.g. a second send.
 */
async function leaveDraft(
  db: Db,
  campaignId: string,
  to: CampaignStatus,
  scheduledAt: Date | null,
  workflowOf: CampaignWorkflowOf,
  idem?: SendIdempotency,
): Promise<CampaignRecord> {
  return db.transaction(async (m) => {
    const moved = await transitionCampaign(m, campaignId, ['Draft'], to, { scheduledAt });
    if (!moved) {
      const now = await findCampaign(m, campaignId);
      if (!now) throw campaignNotFound(campaignId);
      routeOf(now.status, to === 'Queued' ? 'send' : 'schedule', campaignId); // throws: it is no Draft
      throw campaignNotDraft(campaignId, `is ${now.status}`);
    }
    await enqueueWorkflowStart(m, workflowOf(moved));
    await bindKey(m, idem, moved.id);
    return moved;
  });
}

/** POST /campaigns/{id}/send: Queued now, its workflow starts from the outbox; answers the estimate. */
export async function sendCampaign(
  db: Db,
  campaignId: string,
  workflowOf: CampaignWorkflowOf,
  idem?: SendIdempotency,
): Promise<{ campaign: CampaignRecord; estimatedRecipients: number }> {
  if (idem?.resourceId === campaignId) {
    // this key sent it already (its answer was lost): the same 202, not a 409
    const earlier = await findCampaign(db, campaignId);
    if (earlier) return { campaign: earlier, estimatedRecipients: earlier.recipients ?? (await estimateRecipients(db, earlier)) };
  }
  const campaign = await leaveDraft(db, campaignId, 'Queued', null, workflowOf, idem);
  return { campaign, estimatedRecipients: await estimateRecipients(db, campaign) };
}

/** POST /campaigns/{id}/schedule on a Draft: Scheduled at `scheduledAt` (in the future). */
export async function scheduleDraft(db: Db, campaignId: string, scheduledAt: Date, now: Date, workflowOf: CampaignWorkflowOf): Promise<CampaignRecord> {
  checkScheduledAt(scheduledAt, now);
  return leaveDraft(db, campaignId, 'Scheduled', scheduledAt, workflowOf);
}

/** POST /campaigns/{id}/cancel on a Draft (no workflow yet): Cancelled; null when it left Draft meanwhile. */
export async function cancelDraft(executor: Executor, campaignId: string): Promise<CampaignRecord | null> {
  return transitionCampaign(executor, campaignId, ['Draft'], 'Cancelled', { finished: true });
}
