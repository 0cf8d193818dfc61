// The worker registry: one entry per task queue (its workflows, its activities, its
// worker options, the jobs that run beside it). `npm start`, `npm run worker -- <queue>`
// and the test services all read this list; a new queue (push, platform) is one entry.
import type { QueueEntry } from './queue-entry';
import { ticketingQueue } from './queue-ticketing';
import { webhooksQueue } from './queue-webhooks';

export const QUEUES = {
  ticketing: ticketingQueue,
  webhooks: webhooksQueue,
} as const satisfies Record<string, QueueEntry>;

export type TaskQueue = keyof typeof QUEUES;
export const TASK_QUEUES = Object.keys(QUEUES) as TaskQueue[];

export function isTaskQueue(name: string): name is TaskQueue {
  return Object.prototype.hasOwnProperty.call(QUEUES, name);
}

export function queueEntry(name: TaskQueue): QueueEntry {
  return QUEUES[name];
}
