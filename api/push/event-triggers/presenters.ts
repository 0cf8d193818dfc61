import type { EventTriggerRecord } from '../../../domain/push/types';
import type { EventTriggerResponse } from './schema';
import { iso } from '../../kit/dates';

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
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}
