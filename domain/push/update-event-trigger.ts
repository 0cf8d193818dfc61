// PATCH /event-triggers/{id}: enable, disable or edit a trigger. A change applies to
// fires from now on; a firing already waiting keeps the text and time it was given, and
// is sent only if its trigger is still enabled when it is due.
import type { Executor } from '../../db/db';
import { deleteEventTrigger as deleteRow, updateEventTrigger as updateRow, type EventTriggerChanges } from '../../db/repositories/push-event-triggers';
import { eventTriggerNotFound } from './errors';
import type { EventTriggerRecord } from './types';

export async function updateEventTrigger(executor: Executor, id: string, changes: EventTriggerChanges): Promise<EventTriggerRecord> {
  const updated = await updateRow(executor, id, changes);
  if (!updated) throw eventTriggerNotFound(id);
  return updated;
}

/** DELETE /event-triggers/{id}: its waiting firings send nothing (they record skipped_deleted when due). */
export async function deleteEventTrigger(executor: Executor, id: string): Promise<void> {
  if (!(await deleteRow(executor, id))) throw eventTriggerNotFound(id);
}
