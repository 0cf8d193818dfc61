// An app's event trigger (docs/push.md, "Event triggers"). The request was checked
// already (its conditions by trigger.rules.ts's conditionProblem); a trigger of an app
// deleted meanwhile is app_not_found.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { isForeignKeyViolation } from '../../db/pg-errors';
import { insertEventTrigger, type NewEventTrigger } from '../../db/repositories/push-event-triggers';
import { appNotFound } from './errors';
import type { EventTriggerRecord } from './types';

export async function createEventTrigger(executor: Executor, t: Omit<NewEventTrigger, 'id'>): Promise<EventTriggerRecord> {
  return insertEventTrigger(executor, { id: randomUUID(), ...t }).catch((err) => {
    if (isForeignKeyViolation(err)) throw appNotFound(t.appId);
    throw err;
  });
}
