// `npm run worker -- <queue>`: one worker process for one task queue.
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { connectDb } from '../db/db';
import { loadConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { activitiesFor } from './activities';
import { TASK_QUEUES, type TaskQueue } from './queues';
import { ensureSchedules } from './schedules';
import { createWebhookDispatcher, type Dispatcher } from './webhook-dispatcher';
import { WORKER_TUNING } from './tuning';

async function main() {
  const queue = process.argv[2] as TaskQueue;
  if (!TASK_QUEUES.includes(queue)) {
    console.error(`usage: npm run worker -- <${TASK_QUEUES.join('|')}>`);
    process.exit(2);
  }
  // the SDK's own logs (bundling, state changes) only when something is wrong
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: queue,
    workflowsPath: require.resolve('../workflows'),
    activities: activitiesFor(queue, { config, db }),
    ...WORKER_TUNING,
  });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  // the schedules whose workflows this queue runs exist once this worker is up
  if (queue === 'ticketing') await ensureSchedules(client);
  // the outbox dispatcher runs beside the workers that deliver what it starts
  let dispatcher: Dispatcher | undefined;
  if (queue === 'webhooks') {
    dispatcher = createWebhookDispatcher({ db, client, logger });
    await dispatcher.start();
  }
  logger.info({ queue }, 'worker started');
  await worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs the handlers)
  await dispatcher?.stop();
  await clientConnection.close();
  await connection.close();
  await db.close();
}

main().catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
