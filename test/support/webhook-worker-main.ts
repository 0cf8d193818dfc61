// A `webhooks` worker on a task queue the test chooses, for fault tests that kill it:
// `node --import tsx test/support/webhook-worker-main.ts <queue>` (spawned by
// test/support/worker-process.ts). The real workflows and the real delivery activities,
// built the way workers/main.ts builds them and with its worker options, but WITHOUT the
// outbox dispatcher: the suite's own `webhooks` worker already runs one, and a test that
// wants its deliveries executed by this process alone starts their workflows itself, on
// its own queue, which no other worker polls.
import { runQueueWorker } from '../../workers/run-queue-worker';

/** Printed on stdout once the worker is about to poll; worker-process.ts waits for it. */
export const READY_LINE = 'webhook test worker polling';

async function main() {
  const queue = process.argv[2];
  if (!queue) {
    console.error('usage: node --import tsx test/support/webhook-worker-main.ts <task queue>');
    process.exit(2);
  }
  // Orphaned (the test process died without cleaning up): go away rather than keep polling.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 1000).unref();

  // another task queue than 'webhooks': no dispatcher, only this process polls it
  await runQueueWorker('webhooks', { taskQueue: queue, onPolling: () => console.log(`${READY_LINE} ${queue} pid=${process.pid}`) });
}

main().catch((err) => {
  console.error('webhook test worker failed', err);
  process.exit(1);
});
