import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createTicketActivities } from '../../activities/tickets';
import type { Mailer } from '../../activities/tickets/notify';
import { NO_EMAIL } from '../../lib/email/no-email';
import type { Triager } from '../../domain/tickets/types';
import { createTriager } from '../../activities/triage/triager';
import type { Db } from '../../db/db';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The workflow bundle, built once per test process (bundling takes seconds). */
export function workflowBundle() {
  return (bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger }));
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

/**
 * The time-skipping test server from the project's tools venv (see scripts/ensure.sh). The
 * SDK picks a free port for it and then starts it, and another process may bind the port in
 * between: a start that fails is tried again (the SDK picks a fresh port each time), and the
 * last failure is what the test reports.
 */
export async function timeSkippingEnv(tries = 3): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  for (let n = 1; ; n++) {
    try {
      return await TestWorkflowEnvironment.createTimeSkipping(path ? { server: { executable: { type: 'existing-path', path } } } : undefined);
    } catch (err) {
      if (n >= tries) throw err;
    }
  }
}


export async function ticketWorker(opts: {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  db: Db;
  triager?: Triager;
  mailer?: Mailer;
}): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createTicketActivities({
      db: opts.db,
      triager: opts.triager ?? createTriager({}),
      mailer: opts.mailer ?? NO_EMAIL,
    }),
  });
}
