// A `push` worker on a task queue the test chooses, for fault tests that kill it:
// `node --import tsx test/support/push-worker-main.ts <queue>` (spawned by
// test/support/worker-process.ts). The production registry entry (workflows,
// activities, options) on another queue than 'push', so no side job runs and only this
// process polls it. FCM_ENDPOINT / APNS_ENDPOINT come from the environment the test gives.
import { runQueueWorker } from '../../workers/run-queue-worker';

/** Printed on stdout once the worker is about to poll; worker-process.ts waits for it. */
export const READY_LINE = 'push test worker polling';

async function main() {
  const queue = process.argv[2];
  if (!queue) {
    console.error('usage: node --import tsx test/support/push-worker-main.ts <task queue>');
    process.exit(2);
  }
  // Orphaned (the test process died without cleaning up): go away rather than keep polling.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 1000).unref();
  await runQueueWorker('push', { taskQueue: queue, onPolling: () => console.log(`${READY_LINE} ${queue} pid=${process.pid}`) });
}

main().catch((err) => {
  console.error('push test worker failed', err);
  process.exit(1);
});
