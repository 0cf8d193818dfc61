// The layer between the event-trigger routes and the domain: a fire is domain/push/
// fire-event.ts's fireEvent. The answer does not wait for Temporal: the firings' insert
// wakes the push worker's firing dispatcher, which starts their batch's workflow
// (`trigger-batch/<batchId>` on the `push` queue) once they have committed.
import { fireEvent } from '../../../domain/push/fire-event';
import type { AppDeps } from '../../deps';
import type { IdempotencyState } from '../../kit/idempotency';
import type { FireEventBody } from './schema';

export async function fireTriggerEvent(deps: AppDeps, appId: string, body: FireEventBody, idem?: IdempotencyState): Promise<{ triggersMatched: number }> {
  return fireEvent(deps.db, { appId, deviceId: body.deviceId, eventName: body.eventName, properties: body.properties }, { idempotency: idem });
}
