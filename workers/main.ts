// `npm run worker -- <queue>`: one worker process for one task queue of the registry.
import { logger } from '../lib/logger';
import { isTaskQueue, TASK_QUEUES } from './registry';
import { runQueueWorker } from './run-queue-worker';

const queue = process.argv[2] ?? '';
if (!isTaskQueue(queue)) {
  console.error(`usage: npm run worker -- <${TASK_QUEUES.join('|')}>`);
  process.exit(2);
}
runQueueWorker(queue).catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
