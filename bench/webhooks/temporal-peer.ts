// Peer 2: the bare workflow-plus-activity rate of the same Temporal server, with none of
// the app around it (no outbox, no database, no HTTP).
//
//   tsx bench/webhooks/temporal-peer.ts worker   a worker for the peer workflows on their
//                                                own task queue, with the worker options of
//                                                workers/main.ts; TEMPORAL_ADDRESS
//   runTemporalPeer(client, …)                   closed loop: `connections` concurrent
//                                                start-and-wait-for-result of a fresh workflow
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { runLoop, type RunStats } from '../lib/load';
import { WH_PEER_LOCAL_WORKFLOW_TYPE, WH_PEER_QUEUE, WH_PEER_WORKFLOW_TYPE } from './peer.contract';

/** One fresh peer workflow, started and awaited; resolves when it has completed. */
export async function peerOnce(client: Client, n: number, local = false): Promise<void> {
  const r = await client.workflow.execute(local ? WH_PEER_LOCAL_WORKFLOW_TYPE : WH_PEER_WORKFLOW_TYPE, {
    taskQueue: WH_PEER_QUEUE,
    workflowId: `bench-webhooks-peer/${randomUUID()}`,
    args: [n],
  });
  if (r !== 'ok') throw new Error(`unexpected result ${String(r)}`);
}

export function runTemporalPeer(client: Client, connections: number, durationSec: number, local = false): Promise<RunStats> {
  return runLoop((i) => peerOnce(client, i, local), connections, durationSec);
}

async function worker() {
  // as workers/main.ts: the SDK's own logs only when something is wrong
  Runtime.install({ logger: new DefaultLogger('WARN') });
  // what-if knobs for experiments (docs/benchmarks.md); unset = the SDK defaults, as workers/main.ts
  const polls = Number(process.env.PEER_WFT_POLLS) || undefined;
  const ratio = Number(process.env.PEER_NONSTICKY_RATIO) || undefined;
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const connection = await NativeConnection.connect({ address });
  const w = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: WH_PEER_QUEUE,
    workflowsPath: require.resolve('./peer.workflows'),
    activities: { trivial: async () => 'ok' },
    // as workers/main.ts configures the webhooks worker
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 200,
    maxConcurrentLocalActivityExecutions: 400,
    maxCachedWorkflows: 2000,
    ...(polls ? { maxConcurrentWorkflowTaskPolls: polls } : {}),
    ...(ratio ? { nonStickyToStickyPollRatio: ratio } : {}),
  });
  console.log('peer worker started');
  await w.run();
  await connection.close();
}

if (require.main === module && process.argv[2] === 'worker') {
  worker().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
