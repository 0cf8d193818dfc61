// A what-if `webhooks` worker for experiments: exactly what `workers/main.ts webhooks`
// runs (the same workflows bundle, activities, dispatcher and worker options), plus the
// extra Worker options given as JSON in BENCH_WEBHOOK_WORKER_OPTIONS, e.g.
//   BENCH_WEBHOOK_WORKER_OPTIONS='{"nonStickyToStickyPollRatio":1}' npm run bench:webhooks
// The bench runs it instead of workers/main.ts only when that variable is set, and says
// so in the report: it measures a proposed change before anyone makes it in workers/.
import type { WorkerOptions } from '@temporalio/worker';
import { logger } from '../../lib/logger';
import { runQueueWorker } from '../../workers/run-queue-worker';

const options = JSON.parse(process.env.BENCH_WEBHOOK_WORKER_OPTIONS || '{}') as Partial<WorkerOptions>;
runQueueWorker('webhooks', { options }).catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
