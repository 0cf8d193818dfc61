// The set-up both push crash tests share (test/e2e/push-worker-crash.test.ts,
// push-campaign-worker-crash.test.ts): the API, a Temporal client, and a push sink of the
// test's own in this process (so the test sees each push the moment the sink accepts
// it); the worker processes the test starts and kills are stopped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../lib/config';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { startPushSink, type PushSink } from '../../scripts/push-sink';
import type { TestApi } from './api';
import { startPushApi } from './push';
import type { WorkerProcess } from './worker-process';

export interface PushCrashStack {
  api: TestApi;
  client: Client;
  sink: PushSink;
  sinkDir: string;
  /** the test's worker processes: stopped after the file */
  workers: WorkerProcess[];
}

/** Registers the file's beforeAll/afterAll; the fields are set once beforeAll ran. */
export function usePushCrashStack(tag: string): PushCrashStack {
  const stack = { workers: [] as WorkerProcess[] } as PushCrashStack;
  let connection: Connection | undefined;
  beforeAll(async () => {
    stack.api = await startPushApi();
    const config = loadConfig();
    connection = await Connection.connect({ address: config.temporalAddress });
    stack.client = new Client({ connection, namespace: config.temporalNamespace });
    stack.sinkDir = mkdtempSync(join(tmpdir(), `${tag}-sink-`));
    stack.sink = await startPushSink({ dir: stack.sinkDir, host: '127.0.0.1', trust: [demoCredentials()] });
  });
  afterAll(async () => {
    await Promise.all(stack.workers.map((w) => w.stop()));
    await stack.sink?.close();
    await connection?.close();
    await stack.api?.stop();
    if (stack.sinkDir) rmSync(stack.sinkDir, { recursive: true, force: true });
  });
  return stack;
}
