import type { WorkerOptions } from '@temporalio/worker';

/**
 * Worker capacity for every queue, in one place so test and benchmark workers run as the
 * shipped one does. Local activities get the most: webhook attempts run as local
 * activities, up to one per delivery of a batch at once, mostly waiting on receivers.
 */
export const WORKER_TUNING = {
  maxConcurrentActivityTaskExecutions: 200,
  maxConcurrentWorkflowTaskExecutions: 200,
  maxConcurrentLocalActivityExecutions: 400,
  maxCachedWorkflows: 2000,
} satisfies Partial<WorkerOptions>;
