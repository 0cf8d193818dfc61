// The firing dispatcher's claim (workers/firing-dispatcher.ts; docs/push.md, "Event
// triggers"): committed firings are put into batches, each to be started as one
// `trigger-batch/<batchId>` workflow. The batch ids are committed before any workflow
// starts, so a batch taken up again (its start failed, its dispatcher died) is started
// with the same id and input, and startOnce makes that one workflow.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { claimFirings, firingBatches, lockUndispatchedFirings } from '../../db/repositories/push-event-triggers';
import { groupFirings } from './trigger-batch.rules';

export interface ClaimedFiringBatch {
  batchId: string;
  /** 0: due at once; otherwise the latest due time of its firings (epoch ms) */
  sendAtMs: number;
  /** the firings of the batch (for operators, and tests) */
  firings: number;
  /** the firings this claim locked (a batch taken up again may have others locked elsewhere) */
  firingIds: string[];
}

/**
 * Claims up to `limit` undispatched firings, soonest due first (SKIP LOCKED: the
 * dispatchers of several push workers never claim the same firing):
 * - firings never batched are grouped (trigger-batch.rules.ts) and each group gets a new batch id;
 * - firings claimed more than `reclaimAfterMs` ago but never dispatched keep their batch.
 * The caller starts each batch's workflow, then marks the started ones dispatched
 * (markFiringBatchesDispatched).
 */
export async function claimFiringBatches(db: Db, opts: { limit: number; reclaimAfterMs: number }): Promise<ClaimedFiringBatch[]> {
  return db.transaction(async (m) => {
    const firings = await lockUndispatchedFirings(m, opts.limit, opts.reclaimAfterMs);
    if (!firings.length) return [];
    const claims = firings.filter((f) => f.batchId).map((f) => ({ id: f.id, batchId: f.batchId! }));
    for (const group of groupFirings(firings.filter((f) => !f.batchId))) {
      const batchId = randomUUID();
      for (const f of group) claims.push({ id: f.id, batchId });
    }
    await claimFirings(m, claims);
    const mine = new Map<string, string[]>();
    for (const c of claims) mine.set(c.batchId, [...(mine.get(c.batchId) ?? []), c.id]);
    const batches = await firingBatches(m, [...mine.keys()]);
    return batches.map((b) => ({ ...b, firingIds: mine.get(b.batchId)! }));
  });
}
