import type { EventTriggerRecord } from '../../../domain/push/types';
import type { EventTriggerResponse } from './schema';

/** The EventTrigger object: the create request's fields, its id, `enabled` and timestamps. */
export function presentEventTrigger(t: EventTriggerRecord): EventTriggerResponse {
  return {
    id: t.id,
    appId: t.appId,
    name: t.name,
    eventName: t.eventName,
    delayMinutes: t.delayMinutes,
    conditions: t.conditions,
    title: t.title,
    body: t.body,
    enabled: t.enabled,
    createdAt: new Date(t.createdAt).toISOString(),
    updatedAt: new Date(t.updatedAt).toISOString(),
  };
}
