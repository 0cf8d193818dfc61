// Set-up of the trigger firing workflow tests and its history recorder: an app with the
// demo credentials the sink trusts (written through the repositories), a device, a
// trigger, and a fire through the real domain command that hands back the outbox starts
// it made, for the test to start on its own (time-skipping) Temporal.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { ensurePushCompany } from '../../db/repositories/push-demo';
import { insertPushApp, setPushAppCredentials } from '../../db/repositories/push-apps';
import type { OutboxStart } from '../../db/repositories/workflow-starts';
import { createEventTrigger } from '../../domain/push/create-event-trigger';
import { fireEvent } from '../../domain/push/fire-event';
import type { EventTriggerRecord, TriggerCondition } from '../../domain/push/types';
import type { Config } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { triggerFiringStart } from '../../api/push/event-triggers/gateway';
import { insertDevices, type TestDevice } from './push-send';

const UNSERVED_QUEUE = 'trigger-firing-factory';

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
 * Fires the event through domain/push/fire-event.ts at `now` and answers the starts it
 * made. Their outbox entries name a task queue nobody serves, and are deleted: the
 * suite's push worker must not start them on the suite's Temporal.
 */
export async function fireAt(db: Db, now: Date, fire: { appId: string; deviceId: string; eventName?: string; properties?: Record<string, unknown> }): Promise<OutboxStart[]> {
  const starts: OutboxStart[] = [];
  const result = await fireEvent(
    db,
    { appId: fire.appId, deviceId: fire.deviceId, eventName: fire.eventName ?? 'level_up', properties: fire.properties ?? { level: 7, name: 'Ada' } },
    {
      now,
      workflowOf: (f) => {
        const s = triggerFiringStart(f);
        starts.push(s);
        return { ...s, taskQueue: UNSERVED_QUEUE };
      },
    },
  );
  if (result.triggersMatched !== starts.length) throw new Error(`${result.triggersMatched} matched, ${starts.length} starts`);
  await db.query(`DELETE FROM workflow_starts WHERE workflow_id = ANY($1::text[])`, [starts.map((s) => s.workflowId)]);
  return starts;
}
