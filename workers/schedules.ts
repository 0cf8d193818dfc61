// Every Temporal Schedule this code base relies on, created or brought up to date by
// ensureSchedules() when the workers start. The definitions here are the truth: a
// schedule that exists with another spec is updated to match, so a deploy that changes
// a time or an argument takes effect without manual steps.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type CalendarSpec, type Client, type ScheduleOptions } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import {
  MAINTENANCE_TASK_QUEUE,
  PURGE_EVENTS_SCHEDULE_ID,
  PURGE_EVENTS_WORKFLOW_TYPE,
  PURGE_IDEMPOTENCY_KEYS_SCHEDULE_ID,
  PURGE_IDEMPOTENCY_KEYS_WORKFLOW_TYPE,
  PURGE_REVOKED_KEYS_SCHEDULE_ID,
  PURGE_REVOKED_KEYS_WORKFLOW_TYPE,
  PURGE_WEBHOOK_LOG_SCHEDULE_ID,
  PURGE_WEBHOOK_LOG_WORKFLOW_TYPE,
  type PurgeInput,
} from '../workflows/maintenance/contract';
import {
  EVENT_RETENTION_DAYS,
  IDEMPOTENCY_KEY_RETENTION_DAYS,
  REVOKED_KEY_RETENTION_DAYS,
  WEBHOOK_LOG_RETENTION_DAYS,
} from '../workflows/maintenance/purge.logic';

export interface EnsureSchedulesOptions {
  /** task queue of the maintenance workflows; default MAINTENANCE_TASK_QUEUE ('ticketing') */
  taskQueue?: string;
}

export function scheduleDefinitions(opts: EnsureSchedulesOptions = {}): ScheduleOptions[] {
  const taskQueue = opts.taskQueue ?? MAINTENANCE_TASK_QUEUE;
  const hourly = { executionTimeout: '1 hour', catchupWindow: '1 hour' } as const;
  return [
    purgeSchedule(taskQueue, {
      scheduleId: PURGE_REVOKED_KEYS_SCHEDULE_ID,
      // daily at 03:17 UTC: off the hour, when traffic is low
      calendar: { hour: 3, minute: 17, comment: 'daily revoked API key purge' },
      workflowType: PURGE_REVOKED_KEYS_WORKFLOW_TYPE,
      workflowId: 'maintenance/purge-revoked-keys/run',
      olderThanDays: REVOKED_KEY_RETENTION_DAYS,
      executionTimeout: '6 hours',
      // a server outage up to a day still gets the day's run afterwards
      catchupWindow: '1 day',
    }),
    purgeSchedule(taskQueue, {
      scheduleId: PURGE_WEBHOOK_LOG_SCHEDULE_ID,
      // hourly at :23, so a delivery is gone at most an hour after its 7 days
      calendar: { hour: '*', minute: 23, comment: 'hourly webhook delivery log purge' },
      workflowType: PURGE_WEBHOOK_LOG_WORKFLOW_TYPE,
      workflowId: 'maintenance/purge-webhook-log/run',
      olderThanDays: WEBHOOK_LOG_RETENTION_DAYS,
      ...hourly,
    }),
    purgeSchedule(taskQueue, {
      scheduleId: PURGE_EVENTS_SCHEDULE_ID,
      // hourly at :37: an event goes at most an hour after its 7 days past dispatch
      calendar: { hour: '*', minute: 37, comment: 'hourly dispatched outbox event purge' },
      workflowType: PURGE_EVENTS_WORKFLOW_TYPE,
      workflowId: 'maintenance/purge-events/run',
      olderThanDays: EVENT_RETENTION_DAYS,
      ...hourly,
    }),
    purgeSchedule(taskQueue, {
      scheduleId: PURGE_IDEMPOTENCY_KEYS_SCHEDULE_ID,
      // hourly at :07: a key (and a stored one-time secret) lives 24 h, at most 25 h
      calendar: { hour: '*', minute: 7, comment: 'hourly idempotency key purge' },
      workflowType: PURGE_IDEMPOTENCY_KEYS_WORKFLOW_TYPE,
      workflowId: 'maintenance/purge-idempotency-keys/run',
      olderThanDays: IDEMPOTENCY_KEY_RETENTION_DAYS,
      ...hourly,
    }),
  ];
}

interface PurgeScheduleSpec {
  scheduleId: string;
  calendar: CalendarSpec;
  workflowType: string;
  workflowId: string;
  olderThanDays: number;
  executionTimeout: Duration;
  catchupWindow: Duration;
}

/** A purge on a calendar: one run at a time (a run still going skips the next), caught up after an outage within `catchupWindow`. */
function purgeSchedule(taskQueue: string, p: PurgeScheduleSpec): ScheduleOptions {
  const input: PurgeInput = { olderThanDays: p.olderThanDays };
  return {
    scheduleId: p.scheduleId,
    spec: { calendars: [p.calendar] },
    action: {
      type: 'startWorkflow',
      workflowType: p.workflowType,
      workflowId: p.workflowId,
      taskQueue,
      args: [input],
      workflowExecutionTimeout: p.executionTimeout,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: p.catchupWindow },
  };
}

/** Creates the schedules, or updates existing ones to these definitions. Safe to call from every worker start. */
export async function ensureSchedules(client: Client, opts: EnsureSchedulesOptions = {}): Promise<void> {
  for (const def of scheduleDefinitions(opts)) {
    try {
      await client.schedule.create(def);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(def.scheduleId).update((previous) => ({
        ...previous,
        spec: def.spec,
        action: def.action,
        policies: { ...previous.policies, ...def.policies },
      }));
    }
  }
}
