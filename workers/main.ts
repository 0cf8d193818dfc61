// `npm run worker -- <queue>`: one worker process for one task queue.
import { logger } from '../lib/logger';
import { TASK_QUEUES, type TaskQueue } from './queues';
import { runQueueWorker } from './run-queue-worker';

const queue = process.argv[2] as TaskQueue;
if (!TASK_QUEUES.includes(queue)) {
  console.error(`usage: npm run worker -- <${TASK_QUEUES.join('|')}>`);
  process.exit(2);
}
runQueueWorker(queue).catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
