// Peer of `POST /v1/tickets`: the bare rate of the Temporal server for the same shape of
// work, with none of the app around it (no HTTP, no auth, no Postgres).
//
//   tsx bench/peers/noop-workflow.ts worker     a worker for benchNoopWorkflow on its own
//                                               task queue (same worker options as
//                                               workers/main.ts), TEMPORAL_ADDRESS
//   runNoopDriver(...)                          update-with-start + wait for the update that
//                                               resolves after the first activity, exactly
//                                               what api/ticketing/tickets/gateway.ts does;
//                                               `local`: the activity is a local activity
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { runLoop, type RunStats } from '../lib/load';
import { NOOP_LOCAL_WORKFLOW_TYPE, NOOP_QUEUE, NOOP_WORKFLOW_TYPE, startedUpdate } from './noop.contract';

export async function connectClient(address: string): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({ address });
  return { client: new Client({ connection, namespace: 'default' }), close: () => connection.close() };
}

/** One start+update of a fresh no-op workflow; resolves when its activity has run. */
export async function noopOnce(client: Client, n: number, local = false): Promise<void> {
  const startWorkflowOperation = new WithStartWorkflowOperation(local ? NOOP_LOCAL_WORKFLOW_TYPE : NOOP_WORKFLOW_TYPE, {
    workflowId: `bench-noop/${randomUUID()}`,
    taskQueue: NOOP_QUEUE,
    args: [n],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const r = await client.workflow.executeUpdateWithStart(startedUpdate, { startWorkflowOperation });
  if (r !== 'ok') throw new Error(`unexpected result ${r}`);
}

export function runNoopDriver(client: Client, connections: number, durationSec: number, local = false): Promise<RunStats> {
  return runLoop((i) => noopOnce(client, i, local), connections, durationSec);
}

async function worker() {
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const connection = await NativeConnection.connect({ address });
  const w = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue: NOOP_QUEUE,
    workflowsPath: require.resolve('./noop.workflows'),
    activities: { noop: async () => 'ok' },
    // as workers/main.ts configures the ticketing worker
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 200,
    maxCachedWorkflows: 2000,
  });
  console.log('noop worker started');
  await w.run();
  await connection.close();
}

if (require.main === module && process.argv[2] === 'worker') {
  worker().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
