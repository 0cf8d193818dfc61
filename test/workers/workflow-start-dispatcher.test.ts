// The workflow-start dispatcher over the outbox (db/repositories/workflow-starts.ts): each
// entry's workflow is started once, with the entry's type, queue, arguments, search
// attributes and memo, however many dispatchers claim the queue; an entry whose start
// failed (Temporal unreachable) stays until a dispatcher can start it. The entries are on
// a task queue of this test, which no worker polls and no dispatcher of the suite claims.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { connectDb, type Db } from '../../db/db';
import { countPendingWorkflowStarts, enqueueWorkflowStart, findWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { startOnce } from '../../lib/temporal/start-once';
import { createWorkflowStartDispatcher } from '../../workers/workflow-start-dispatcher';
import type { Dispatcher } from '../../workers/outbox-dispatcher';
import { eventually } from '../support/eventually';

const logger = createLogger({ level: 'silent' });
let db: Db;
let connection: Connection;
let client: Client;
const started: string[] = [];
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  const config = loadConfig();
  db = await connectDb(config.databaseUrl, 10);
  connection = await Connection.connect({ address: config.temporalAddress });
  client = new Client({ connection, namespace: config.temporalNamespace });
});
// each dispatcher holds a LISTEN connection of the pool until it stops
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await Promise.all(started.map((id) => client.workflow.getHandle(id).terminate('test cleanup').catch(() => undefined)));
  await connection?.close();
  await db?.close();
});

const newQueue = (tag: string) => `wfstart-${tag}-${process.pid}-${Date.now().toString(36)}`;

function entry(queue: string, n: number): OutboxStart {
  const workflowId = `${queue}/${n}`;
  started.push(workflowId);
  return {
    workflowId,
    workflowType: 'pushSendWorkflow',
    taskQueue: queue,
    args: [{ sendId: `send-${n}` }],
    searchAttributes: { WorkspaceId: [`ws-${n}`] },
    memo: { n },
  };
}

/** `base`, with its workflow starts counted by workflow id. */
function countingClient(base: Client, counts: Map<string, number>): Client {
  const workflow = new Proxy(base.workflow, {
    get(target, prop, receiver) {
      if (prop !== 'start') return Reflect.get(target, prop, receiver);
      return (type: string, options: { workflowId: string }) => {
        counts.set(options.workflowId, (counts.get(options.workflowId) ?? 0) + 1);
        return target.start(type, options as never);
      };
    },
  });
  return new Proxy(base, { get: (target, prop) => (prop === 'workflow' ? workflow : Reflect.get(target, prop, target)) });
}

async function dispatch(opts: { taskQueue: string; client: Client; reclaimAfterMs?: number }): Promise<Dispatcher> {
  const d = createWorkflowStartDispatcher({ db, logger, pollIntervalMs: 200, ...opts });
  dispatchers.push(d);
  await d.start();
  return d;
}

test('three dispatchers start each entry once, as the entry says, and forget it', async () => {
  const queue = newQueue('many');
  const counts = new Map<string, number>();
  const entries = Array.from({ length: 60 }, (_, n) => entry(queue, n));
  // half wait before the dispatchers are up (the backlog pass), half arrive by NOTIFY
  for (const e of entries.slice(0, 30)) await enqueueWorkflowStart(db, e);
  for (let i = 0; i < 3; i++) await dispatch({ taskQueue: queue, client: countingClient(client, counts), reclaimAfterMs: 60_000 });
  await Promise.all(entries.slice(30).map((e) => db.transaction((m) => enqueueWorkflowStart(m, e))));
  await eventually(async () => (await countPendingWorkflowStarts(db, queue)) === 0, { timeoutMs: 30_000 });
  assert.deepEqual([...counts.keys()].sort(), entries.map((e) => e.workflowId).sort());
  assert.ok([...counts.values()].every((n) => n === 1), 'an entry was started by more than one dispatcher');
  for (const e of [entries[0], entries[45]]) {
    const d = await client.workflow.getHandle(e.workflowId).describe();
    assert.equal(d.type, e.workflowType);
    assert.equal(d.taskQueue, queue);
    assert.deepEqual(d.searchAttributes.WorkspaceId, e.searchAttributes!.WorkspaceId);
    assert.deepEqual(d.memo, e.memo);
  }
});

test('an entry whose workflow already runs is forgotten without a second run', async () => {
  const queue = newQueue('dup');
  const e = entry(queue, 0);
  // update-with-start, or a dispatcher that died after the start: the workflow runs first
  assert.equal(await startOnce(client, e.workflowType, { workflowId: e.workflowId, taskQueue: queue, args: e.args }), true);
  const runId = (await client.workflow.getHandle(e.workflowId).describe()).runId;
  await enqueueWorkflowStart(db, e);
  await dispatch({ taskQueue: queue, client });
  await eventually(async () => (await findWorkflowStart(db, e.workflowId)) === null);
  assert.equal((await client.workflow.getHandle(e.workflowId).describe()).runId, runId);
});

test('committed while Temporal is unreachable: the entry stays, and is started once Temporal answers', async () => {
  const queue = newQueue('down');
  const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '500ms' }) });
  const attempts = new Map<string, number>();
  const down = await dispatch({ taskQueue: queue, client: countingClient(deadTemporal, attempts), reclaimAfterMs: 500 });
  const e = entry(queue, 0);
  await enqueueWorkflowStart(db, e);
  // claimed, failed, claimed again after the reclaim time, failed again: still pending
  await eventually(async () => (attempts.get(e.workflowId) ?? 0) >= 2, { timeoutMs: 30_000 });
  assert.ok(await findWorkflowStart(db, e.workflowId), 'the entry went without its workflow');
  await down.stop();
  // Temporal is back (a dispatcher that reaches it): the claim is taken up again
  const counts = new Map<string, number>();
  await dispatch({ taskQueue: queue, client: countingClient(client, counts), reclaimAfterMs: 500 });
  await eventually(async () => (await findWorkflowStart(db, e.workflowId)) === null);
  assert.equal((await client.workflow.getHandle(e.workflowId).describe()).status.name, 'RUNNING');
  assert.equal(counts.get(e.workflowId), 1);
});

test('beside a worker of its queue, on the connection of that worker, a start is eager: the first workflow task comes back in its answer', async () => {
  const queue = newQueue('eager');
  const config = loadConfig();
  const native = await NativeConnection.connect({ address: config.temporalAddress });
  const eagerly = new Map<string, boolean>();
  // what each start answered, as the client's own interceptor sees it
  const sharing = new Client({
    connection: native,
    namespace: config.temporalNamespace,
    interceptors: {
      workflow: [
        {
          async startWithDetails(input, next) {
            const out = await next(input);
            eagerly.set(input.options.workflowId, out.eagerlyStarted);
            return out;
          },
        },
      ],
    },
  });
  const worker = await Worker.create({ connection: native, namespace: config.temporalNamespace, taskQueue: queue, workflowsPath: require.resolve('../workflows/mutex-probe.workflow') });
  try {
    await worker.runUntil(async () => {
      const e = { ...entry(queue, 0), workflowType: 'mutexProbeWorkflow', args: [0] };
      await enqueueWorkflowStart(db, e);
      await dispatch({ taskQueue: queue, client: sharing });
      await eventually(async () => (await findWorkflowStart(db, e.workflowId)) === null);
      assert.equal(eagerly.get(e.workflowId), true, 'started without the first task');
      assert.equal(await client.workflow.getHandle(e.workflowId).result(), 0);
    });
  } finally {
    await native.close();
  }
});
