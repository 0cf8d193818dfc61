// A what-if `webhooks` worker for experiments: exactly what `workers/main.ts webhooks`
// runs (the same workflows bundle, activities, dispatcher and worker options), plus the
// extra Worker options given as JSON in BENCH_WEBHOOK_WORKER_OPTIONS, e.g.
//   BENCH_WEBHOOK_WORKER_OPTIONS='{"nonStickyToStickyPollRatio":1}' npm run bench:webhooks
// The bench runs it instead of workers/main.ts only when that variable is set, and says
// so in the report: it measures a proposed change before anyone makes it in workers/.
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { logger } from '../../lib/logger';
import { activitiesFor } from '../../workers/activities';
import { createWebhookDispatcher } from '../../workers/webhook-dispatcher';
import { WORKER_TUNING } from '../../workers/tuning';

async function main() {
  const extra = JSON.parse(process.env.BENCH_WEBHOOK_WORKER_OPTIONS || '{}') as Partial<WorkerOptions>;
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const config = loadConfig();
  const db = await connectDb(config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: 'webhooks',
    workflowsPath: require.resolve('../../workflows'),
    activities: activitiesFor('webhooks', { config, db }),
    ...WORKER_TUNING,
    ...extra,
  });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  const dispatcher = createWebhookDispatcher({ db, client, logger });
  await dispatcher.start();
  logger.info({ queue: 'webhooks', extra }, 'worker started (what-if options)');
  await worker.run();
  await dispatcher.stop();
  await clientConnection.close();
  await connection.close();
  await db.close();
}

main().catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
