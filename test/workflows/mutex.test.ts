// The change lock (workflows/mutex.ts) lets one step in at a time even when several
// waiters find it free in the same activation: three signals recorded before any worker
// polls reach the run in its first workflow task together, and their steps run one after
// another (docs/workflows.md, "The change lock").
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { bumpSignal } from './mutex-probe.workflow';
import { timeSkippingEnv } from '../support/temporal';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await timeSkippingEnv();
}, 120_000);
afterAll(async () => env?.teardown());

test('three waiters released in one activation hold the lock one at a time', async () => {
  const taskQueue = `mutex-${randomUUID()}`;
  const handle = await env.client.workflow.start('mutexProbeWorkflow', { taskQueue, workflowId: `mutex-probe-${randomUUID()}`, args: [3] });
  // no worker yet: the start and the three signals wait for the first workflow task together
  for (let i = 0; i < 3; i++) await handle.signal(bumpSignal);
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('./mutex-probe.workflow') });
  const most = await worker.runUntil(handle.result());
  assert.equal(most, 1, 'steps that held the lock at the same time');
  const patches = ((await handle.fetchHistory()).events ?? [])
    .flatMap((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? [])
    .map((p) => Buffer.from(p.data ?? []).toString());
  assert.ok(patches.some((p) => p.includes('mutex-atomic-take')), `the patch marker: ${patches.join(', ')}`);
});
