// A worker of one registry queue (`webhooks`, `push`, …) on a task queue the test chooses,
// for fault tests that kill it: `node --import tsx test/support/queue-worker-main.ts
// <registry queue> <task queue>` (spawned by test/support/worker-process.ts). The
// production registry entry (workflows, activities, worker options) on another task queue
// than the real one, so none of the queue's side jobs runs (no schedules, no outbox
// dispatcher: the suite's own workers run those) and only this process polls it; a test
// that wants its work done by this process alone starts its workflows itself on that
// queue. FCM_ENDPOINT / APNS_ENDPOINT and the like come from the environment the test gives.
import { isTaskQueue } from '../../workers/registry';
import { runQueueWorker } from '../../workers/run-queue-worker';

/** Printed on stdout once the worker is about to poll; worker-process.ts waits for it. */
export const READY_LINE = 'test worker polling';

async function main() {
  const [queue, taskQueue] = process.argv.slice(2);
  if (!queue || !isTaskQueue(queue) || !taskQueue) {
    console.error('usage: node --import tsx test/support/queue-worker-main.ts <registry queue> <task queue>');
    process.exit(2);
  }
  // Orphaned (the test process died without cleaning up): go away rather than keep polling.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 1000).unref();
  await runQueueWorker(queue, { taskQueue, onPolling: () => console.log(`${READY_LINE} ${queue} ${taskQueue} pid=${process.pid}`) });
}

main().catch((err) => {
  console.error('test worker failed', err);
  process.exit(1);
});
