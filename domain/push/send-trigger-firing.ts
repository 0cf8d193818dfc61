// A firing that is due (the `trigger-firing/<id>` workflow's activities, activities/push/
// trigger-firing.ts): the check that its trigger still wants it and the creation of its
// one-device send in one transaction, under the firing's row lock; then, after the push,
// its outcome. Idempotent: the firing stores its send's id, so a repeated call (a retried
// activity, a replayed workflow) reuses that send and never makes a second one.
import type { Db } from '../../db/db';
import { lockDueFiring, setFiringStatus, settleFiring } from '../../db/repositories/push-event-triggers';
import { insertSend } from '../../db/repositories/push-sends';
import type { FiringOutcome } from './types';

export async function startTriggerFiring(db: Db, firingId: string): Promise<{ sendId: string | null; outcome: FiringOutcome }> {
  return db.transaction(async (m) => {
    const f = await lockDueFiring(m, firingId);
    if (!f) return { sendId: null, outcome: 'gone' as const }; // its app was deleted
    if (f.sendId) return { sendId: f.sendId, outcome: f.status as FiringOutcome };
    if (f.status !== 'pending') return { sendId: null, outcome: f.status as FiringOutcome };
    const skip = async (outcome: 'skipped_deleted' | 'skipped_disabled' | 'skipped_device') => {
      await setFiringStatus(m, firingId, outcome);
      return { sendId: null, outcome };
    };
    if (f.triggerEnabled === null) return skip('skipped_deleted');
    if (!f.triggerEnabled) return skip('skipped_disabled');
    const platform = f.sendablePlatform;
    if (!platform) return skip('skipped_device'); // deleted, or inactive (dead token) since the fire
    const { sendId } = await insertSend(m, { appId: f.appId, title: f.title, body: f.body, deepLink: null, customData: {} }, [{ id: f.deviceId, platform }]);
    await setFiringStatus(m, firingId, 'sending', sendId);
    return { sendId, outcome: 'sending' as const };
  });
}

/** After its push: the firing is `sent` or `failed` as its notification was recorded. */
export async function finishTriggerFiring(db: Db, firingId: string, sendId: string): Promise<FiringOutcome> {
  return (await settleFiring(db, firingId, sendId)) ?? 'gone'; // null: the send went with its app
}
