// POST /event-triggers/fire (docs/push.md, "Event triggers"): one read (the device is
// the app's, and the app's enabled triggers of the event), the conditions and the text
// decided here (trigger.rules.ts), then ONE statement: a firing row per matched trigger
// with its rendered text and due time (in a transaction with the Idempotency-Key's
// binding when there is a key). Temporal is not called: the
// insert's NOTIFY wakes the push worker's firing dispatcher, which puts committed firings
// into batches and starts each batch's workflow once (workers/firing-dispatcher.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { isForeignKeyViolation } from '../../db/pg-errors';
import { bindIdempotencyResource } from '../../db/repositories/idempotency-keys';
import { countFiringsOf, fireCandidates, insertFirings, type FiringBatch, type NewFiring } from '../../db/repositories/push-event-triggers';
import { deviceNotFound, idempotencyRequestInProgress } from './errors';
import type { SendIdempotency } from './send';
import { conditionsHold, renderFiring } from './trigger.rules';

export interface FireRequest {
  appId: string;
  deviceId: string;
  eventName: string;
  properties: Record<string, unknown>;
}

export interface FireOptions {
  idempotency?: SendIdempotency;
  /** the fire's time (tests stand at a boundary with it) */
  now?: Date;
  /** the firings straight into this batch, started by the caller (tests; see FiringBatch) */
  batch?: FiringBatch;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Answers how many triggers matched (each one firing, each one push when due). A device
 * that is not the app's (unknown, another app's, malformed id) is device_not_found: a
 * typo in a deviceId must not look like "no trigger matched".
 *
 * Under an Idempotency-Key the fire's id is bound to the key in its transaction, so a
 * retry after a lost answer counts the firings made then instead of firing again.
 */
export async function fireEvent(db: Db, request: FireRequest, opts: FireOptions): Promise<{ triggersMatched: number }> {
  const idem = opts.idempotency;
  if (idem?.resourceId) return { triggersMatched: await countFiringsOf(db, idem.resourceId) };
  try {
    return await fireOnce(db, request, opts);
  } catch (err) {
    // a matched trigger (or the app) was deleted between the read and the insert: the
    // transaction rolled back, and the fire is decided again on what exists now
    if (!isForeignKeyViolation(err)) throw err;
    return fireOnce(db, request, opts);
  }
}

async function fireOnce(db: Db, request: FireRequest, opts: FireOptions): Promise<{ triggersMatched: number }> {
  const idem = opts.idempotency;
  const { appId, deviceId, properties } = request;
  if (!UUID.test(deviceId)) throw deviceNotFound(deviceId);
  const { deviceKnown, triggers } = await fireCandidates(db, appId, deviceId, request.eventName);
  if (!deviceKnown) throw deviceNotFound(deviceId);
  const now = opts.now ?? new Date();
  const firings: NewFiring[] = triggers
    .filter((t) => conditionsHold(t.conditions, properties))
    .map((t) => ({ id: randomUUID(), triggerId: t.id, sendAt: new Date(now.getTime() + t.delayMinutes * 60_000), ...renderFiring(t, properties) }));
  // nothing matched: nothing to store, nothing to send
  if (!firings.length) return { triggersMatched: 0 };
  const fireId = randomUUID();
  const fire = { fireId, appId, deviceId };
  // without a key the one INSERT is atomic by itself: no BEGIN/COMMIT round trips
  if (!idem) {
    await insertFirings(db, fire, firings, opts.batch);
    return { triggersMatched: firings.length };
  }
  await db.transaction(async (m) => {
    await insertFirings(m, fire, firings, opts.batch);
    // a retry took the key over while this request waited: it answers, this one must not fire
    if (!(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, fireId))) {
      throw idempotencyRequestInProgress();
    }
  });
  return { triggersMatched: firings.length };
}
