// The worker registry: one entry per task queue (its workflows, its activities, its
// worker options, the jobs that run beside it). `npm start`, `npm run worker -- <queue>`
// and the test services all read this list; a new queue (push, platform) is one entry.
import type { QueueEntry, SideJobDeps } from './queue-entry';
import { onboardingQueue } from './queue-onboarding';
import { platformQueue } from './queue-platform';
import { pushQueue } from './queue-push';
import { ticketingQueue } from './queue-ticketing';
import { webhooksQueue } from './queue-webhooks';
import { createWorkflowStartDispatcher } from './workflow-start-dispatcher';

export const QUEUES = {
  ticketing: ticketingQueue,
  webhooks: webhooksQueue,
  push: pushQueue,
  onboarding: onboardingQueue,
  platform: platformQueue,
} as const satisfies Record<string, QueueEntry>;

export type TaskQueue = keyof typeof QUEUES;
export const TASK_QUEUES = Object.keys(QUEUES) as TaskQueue[];

export function isTaskQueue(name: string): name is TaskQueue {
  return Object.prototype.hasOwnProperty.call(QUEUES, name);
}

export function queueEntry(name: TaskQueue): QueueEntry {
  return QUEUES[name];
}

/**
 * What runs beside a queue's worker on its real queue name: the start dispatcher of the
 * queue's outbox entries (when its workflows start from the outbox), then the entry's own
 * side jobs. Resolves once they are up, to a function that stops them.
 */
export async function startSideJobs(entry: QueueEntry, deps: SideJobDeps): Promise<() => Promise<void>> {
  const dispatcher = entry.startsFromOutbox ? createWorkflowStartDispatcher({ ...deps, taskQueue: entry.name }) : undefined;
  await dispatcher?.start();
  const stopOwn = await entry.sideJobs?.(deps);
  return async () => {
    await stopOwn?.();
    await dispatcher?.stop();
  };
}
