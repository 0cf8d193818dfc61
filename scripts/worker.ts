// `npm run worker -- <queue>`: one more worker of a task queue, joining the stack `npm start`
// runs the way its own workers do. Variables already set win; then the running stack's
// addresses (<state dir>/stack.env, written by npm start: scripts/stack-env.ts); then
// .data/env (scripts/ensure.sh: database, Redis, the master key), as npm start loads it.
import { join, resolve } from 'node:path';
import { loadEnvFile } from './env-file';
import { stackEnvPath } from './stack-env';

const ROOT = resolve(__dirname, '..');
loadEnvFile(stackEnvPath(ROOT));
loadEnvFile(join(ROOT, '.data', 'env'));
// after the environment is complete: the worker's modules read it as they load
void import('../workers/main');
