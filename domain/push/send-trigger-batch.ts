// A batch of firings that is due (the `trigger-batch/<batchId>` workflow's activities,
// activities/push/trigger-batch.ts): under the batch's row locks, in one transaction,
// each firing whose trigger still exists and is enabled and whose device is active gets a
// notification, ONE send per app of the batch (a notification per firing, carrying the
// firing's text; its id is the firing's), and the others record why not. Idempotent: the
// firings store their send's id, so a repeated call (a retried activity, a replayed
// workflow) answers those sends and never makes a second one.
import type { Db } from '../../db/db';
import { lockBatchFirings, setFiringStatuses, settleBatchFirings, type DueFiring } from '../../db/repositories/push-event-triggers';
import { insertTextedSend } from '../../db/repositories/push-sends';
import type { FiringStatus, TriggerBatchCounts } from './types';

/** What a batch's send is called where sends are listed: its rows carry the text pushed. */
const BATCH_SEND_TITLE = 'Event trigger firings';

export async function startTriggerBatch(db: Db, batchId: string): Promise<{ sendIds: string[] }> {
  return db.transaction(async (m) => {
    const firings = await lockBatchFirings(m, batchId);
    // a repeat: the sends made before (or none: everything was skipped, or the app deleted)
    const made = [...new Set(firings.map((f) => f.sendId).filter((id): id is string => !!id))];
    if (made.length || !firings.some((f) => f.status === 'pending')) return { sendIds: made };
    const changes: Array<{ id: string; status: FiringStatus; sendId: string | null }> = [];
    const byApp = new Map<string, DueFiring[]>();
    for (const f of firings) {
      if (f.status !== 'pending') continue;
      if (f.triggerEnabled === null) changes.push({ id: f.id, status: 'skipped_deleted', sendId: null });
      else if (!f.triggerEnabled) changes.push({ id: f.id, status: 'skipped_disabled', sendId: null });
      // deleted, or inactive (dead token) since the fire
      else if (!f.sendablePlatform) changes.push({ id: f.id, status: 'skipped_device', sendId: null });
      else byApp.set(f.appId, [...(byApp.get(f.appId) ?? []), f]);
    }
    const sendIds: string[] = [];
    for (const [appId, due] of byApp) {
      const sendId = await insertTextedSend(
        m,
        { appId, title: BATCH_SEND_TITLE, body: `${due.length} firing(s) of batch ${batchId}` },
        due.map((f) => ({ id: f.id, deviceId: f.deviceId, platform: f.sendablePlatform!, title: f.title, body: f.body })),
      );
      sendIds.push(sendId);
      for (const f of due) changes.push({ id: f.id, status: 'sending', sendId });
    }
    await setFiringStatuses(m, changes);
    return { sendIds };
  });
}

/** After its pushes: every firing sent is `sent` or `failed` as its notification was; the batch's counts. */
export async function finishTriggerBatch(db: Db, batchId: string): Promise<TriggerBatchCounts> {
  return settleBatchFirings(db, batchId);
}
