// A `webhooks` worker on a task queue the test chooses, for fault tests that kill it:
// `node --import tsx test/support/webhook-worker-main.ts <queue>` (spawned by
// test/support/worker-process.ts). The real workflows and the real delivery activities,
// built the way workers/main.ts builds them and with its worker options, but WITHOUT the
// outbox dispatcher: the suite's own `webhooks` worker already runs one, and a test that
// wants its deliveries executed by this process alone starts their workflows itself, on
// its own queue, which no other worker polls.
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { activitiesFor } from '../../workers/activities';
import { WORKER_TUNING } from '../../workers/tuning';

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

  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  // the capacity of workers/main.ts
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows'),
    activities: activitiesFor('webhooks', { config, db }),
    ...WORKER_TUNING,
  });
  const running = worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs the handlers)
  console.log(`${READY_LINE} ${queue} pid=${process.pid}`);
  await running;
  await connection.close();
  await db.close();
}

main().catch((err) => {
  console.error('webhook test worker failed', err);
  process.exit(1);
});
