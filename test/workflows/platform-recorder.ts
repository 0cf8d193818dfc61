// What the platform history recorders share (record-platform-*-history.ts): the
// time-skipping server, and a worker of the `platform` queue's workflows with the
// recorder's in-memory activities while a recording runs. Each recorder writes what it
// recorded with writeHistory (push-recorder.ts).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { PLATFORM_QUEUE } from '../../workflows/platform-token/contract';
import { timeSkippingEnv } from '../support/temporal';

export interface PlatformRecorder {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** runs `record` beside a `platform` queue worker with `activities` on `taskQueue` */
  withWorker<T>(activities: object, record: () => Promise<T>): Promise<T>;
}

/** Runs `record` on the time-skipping server, then tears it down; exits 1 on a failure. */
export function recordPlatformHistories(record: (r: PlatformRecorder) => Promise<void>, taskQueue = `record-${PLATFORM_QUEUE}`): void {
  (async () => {
    const env = await timeSkippingEnv();
    try {
      await record({
        env,
        taskQueue,
        async withWorker(activities, run) {
          const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('../../workflows/queues/platform'), activities });
          return worker.runUntil(run);
        },
      });
    } finally {
      await env.teardown();
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
