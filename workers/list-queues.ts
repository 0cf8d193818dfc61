// Prints the registry's task queue names, one a line, for shell scripts
// (scripts/test-services.sh) that start one worker per queue.
import { TASK_QUEUES } from './registry';

process.stdout.write(TASK_QUEUES.map((q) => `${q}\n`).join(''));
