// The running stack's addresses, for a worker started beside it: `npm start` writes them to
// <state dir>/stack.env once it knows them (its Temporal server, its database and Redis, and
// the stand-ins it started for mail and push), and `npm run worker` (scripts/worker.ts)
// reads them, so an extra worker polls the same Temporal, sends its pushes to the same
// local sink and its mail to the same catcher as npm start's own workers, never to
// Google's, Apple's or no mail server. The file is left in place when npm start stops: a
// worker started later then fails to reach the stopped stand-ins rather than reaching the
// real services. The master key is not written here: it comes from .data/env (or the
// worker's own environment), as it does for npm start.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What makes a worker one of the stack's own (each one only when npm start has it). */
export const STACK_ENV_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'SMTP_URL',
  'FCM_ENDPOINT',
  'APNS_ENDPOINT',
] as const;

/** <START_STATE_DIR or .data>/stack.env: where npm start and npm run worker meet. */
export function stackEnvPath(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(resolve(env.START_STATE_DIR || join(root, '.data')), 'stack.env');
}

const shellQuote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

/** Writes the stack's current values of STACK_ENV_KEYS, shell-sourceable (scripts/env-file.ts reads it). */
export function writeStackEnv(path: string, env: NodeJS.ProcessEnv = process.env): void {
  const lines = ['# Written by npm start (scripts/start.ts) for `npm run worker` (scripts/worker.ts); variables already set win.'];
  for (const key of STACK_ENV_KEYS) if (env[key]) lines.push(`export ${key}=${shellQuote(env[key]!)}`);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}`;
  // it names the database URL, password included: for this user only
  writeFileSync(tmp, lines.join('\n') + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
