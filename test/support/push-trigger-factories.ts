// Set-up of the trigger batch workflow tests, the firing dispatcher test and the history
// recorder: an app with the demo credentials the sink trusts (written through the
// repositories), a device, a trigger, and a fire through the real domain command whose
// firings go straight into a batch of the test's (so the suite's firing dispatcher leaves
// them alone), for the test to start on its own (time-skipping) Temporal.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { ensurePushCompany } from '../../db/repositories/push-demo';
import { insertPushApp, setPushAppCredentials } from '../../db/repositories/push-apps';
import { createEventTrigger } from '../../domain/push/create-event-trigger';
import { fireEvent } from '../../domain/push/fire-event';
import type { EventTriggerRecord, TriggerCondition } from '../../domain/push/types';
import type { Config } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';
import type { TriggerBatchInput } from '../../workflows/trigger-batch/contract';
import { insertDevices, type TestDevice } from './push-send';

/** An app with the demo FCM and APNs credentials, and one device of the given platform. */
export async function triggerApp(db: Db, config: Config, platform: 'Android' | 'iOS' = 'Android'): Promise<{ appId: string; device: TestDevice }> {
  const companyId = randomUUID();
  const appId = randomUUID();
  await ensurePushCompany(db, { id: companyId, name: `Company ${companyId}` });
  await insertPushApp(db, { id: appId, companyId, name: 'Triggers', bundleId: demoCredentials().apns.bundleId, platform });
  await setPushAppCredentials(db, appId, 'fcm', sealCredentials(config, appId, 'fcm', { serviceAccountJson: demoCredentials().serviceAccountJson }));
  await setPushAppCredentials(db, appId, 'apns', sealCredentials(config, appId, 'apns', demoCredentials().apns));
  const [device] = await insertDevices(db, appId, 1, { platform: () => platform });
  return { appId, device };
}

export async function createTrigger(
  db: Db,
  appId: string,
  t: { delayMinutes: number; eventName?: string; conditions?: TriggerCondition[]; title?: string; body?: string; enabled?: boolean },
): Promise<EventTriggerRecord> {
  return createEventTrigger(db, {
    appId,
    name: 'test trigger',
    eventName: t.eventName ?? 'level_up',
    delayMinutes: t.delayMinutes,
    conditions: t.conditions ?? [],
    title: t.title ?? 'Level {{properties.level}}',
    body: t.body ?? 'Well played, {{properties.name}}',
    enabled: t.enabled ?? true,
  });
}

/**
 * Fires the event through domain/push/fire-event.ts at `now`, its firings straight into
 * the batch `batchId` (a new one when not given): dispatched (the caller starts the
 * batch's workflow), or, with `dispatched: false`, claimed now as by a dispatcher that
 * died before the start. Answers the batch's id.
 */
export async function fireAt(
  db: Db,
  now: Date,
  fire: { appId: string; deviceId: string; eventName?: string; properties?: Record<string, unknown> },
  batch: { batchId?: string; dispatched?: boolean } = {},
): Promise<{ batchId: string; triggersMatched: number }> {
  const batchId = batch.batchId ?? randomUUID();
  const { triggersMatched } = await fireEvent(
    db,
    { appId: fire.appId, deviceId: fire.deviceId, eventName: fire.eventName ?? 'level_up', properties: fire.properties ?? { level: 7, name: 'Ada' } },
    { now, batch: { batchId, dispatched: batch.dispatched ?? true } },
  );
  return { batchId, triggersMatched };
}

/** The batch's workflow input as the dispatcher makes it for firings of one delay fired at `firedAtMs`. */
export const batchInput = (batchId: string, firedAtMs: number, delayMinutes: number): TriggerBatchInput => ({
  batchId,
  sendAtMs: delayMinutes === 0 ? 0 : firedAtMs + delayMinutes * 60_000,
});
