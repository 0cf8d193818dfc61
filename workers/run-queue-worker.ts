// One worker process for one task queue, as `npm run worker -- <queue>` runs it: the
// shared bootstrapping that the test and benchmark workers reuse, so they run exactly
// what production runs.
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { connectDb } from '../db/db';
import { loadConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { queueEntry, startSideJobs, type TaskQueue } from './registry';

/** Worker capacity every queue starts from; a registry entry's `options` adjust it. */
export const WORKER_TUNING = {
  maxConcurrentActivityTaskExecutions: 200,
  maxConcurrentWorkflowTaskExecutions: 200,
  maxConcurrentLocalActivityExecutions: 200,
  maxCachedWorkflows: 2000,
  // 20 workflow-task pollers, 10 of them on the non-sticky queue (the SDK's defaults: 10
  // and 2): every new workflow's first task comes from there, and at 20 new ticket
  // workflows a second two pollers left them queued for seconds, so Updates outlived the
  // API's deadline (docs/benchmarks.md, "Webhooks, platform phase").
  maxConcurrentWorkflowTaskPolls: 20,
  nonStickyToStickyPollRatio: 0.5,
} satisfies Partial<WorkerOptions>;

export interface RunOptions {
  /**
   * Poll this task queue instead of `queue` (fault tests). The queue's side jobs (the
   * schedules, the outbox dispatchers) run only on the real queue name.
   */
  taskQueue?: string;
  /** extra Worker options (benchmark what-ifs) */
  options?: Partial<WorkerOptions>;
  /** called once the worker is about to poll */
  onPolling?: () => void;
}

/** Runs the `queue` worker until SIGINT/SIGTERM, then closes everything it opened. */
export async function runQueueWorker(queue: TaskQueue, opts: RunOptions = {}): Promise<void> {
  const entry = queueEntry(queue);
  const taskQueue = opts.taskQueue ?? entry.name;
  // the SDK's own logs (bundling, state changes) only when something is wrong
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  // the side jobs' and activities' client shares the worker's connection, so a dispatcher's
  // start on this queue can be eager: the first workflow task comes back in the start's
  // answer to this worker, with no trip through matching (docs/workflows.md, "Eager starts")
  const client = new Client({ connection, namespace: config.temporalNamespace });
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue,
    workflowsPath: entry.workflowsPath, // this queue's workflows only
    activities: entry.activities({ config, db, client }),
    ...WORKER_TUNING,
    ...entry.options,
    ...opts.options,
  });
  const stopSideJobs = taskQueue === entry.name ? await startSideJobs(entry, { config, db, client, logger }) : undefined;
  const running = worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs the handlers)
  logger.info({ queue, taskQueue, options: opts.options }, 'worker started');
  opts.onPolling?.();
  await running;
  await stopSideJobs?.();
  await connection.close();
  await db.close();
}
