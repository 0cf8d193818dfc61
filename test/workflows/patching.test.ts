// The documented way to change workflow code safely (docs/workflows.md): a patched()
// branch replays a history recorded before the change along the old path, and a new run
// takes the new path. The same change without patched() fails the replay.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DeterminismViolationError } from '@temporalio/workflow';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import type { ReminderActivities } from './patching/activities';
import { timeSkippingEnv } from '../support/temporal';

const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };
const bundle = (version: string) =>
  bundleWorkflowCode({ workflowsPath: require.resolve(`./patching/reminder.${version}.workflow`), logger: quiet });
const activities: ReminderActivities = {
  notify: async (name) => `notified ${name}`,
  audit: async (name) => `audited ${name}`,
};

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await timeSkippingEnv();
});
afterAll(async () => env?.teardown());

/** Runs `reminderWorkflow` to completion on `version`'s code; its result and history. */
async function run(version: string) {
  const taskQueue = `patching-${version}-${randomUUID()}`;
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await bundle(version), activities });
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start('reminderWorkflow', { taskQueue, workflowId: `reminder/${randomUUID()}`, args: ['robin'] });
    const result = (await handle.result()) as string[];
    return { result, history: await handle.fetchHistory() };
  });
}

const hasPatchMarker = (history: Awaited<ReturnType<typeof run>>['history']) =>
  (history.events ?? []).some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');

describe('changing workflow code with patched()', () => {
  let v1: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    v1 = await run('v1'); // a run recorded before the change
  });

  it('the old history replays on the patched code, along the old path', async () => {
    assert.deepEqual(v1.result, ['notified robin']);
    await Worker.runReplayHistory({ workflowBundle: await bundle('v2'), replayName: 'v1-on-v2' }, v1.history, 'v1-on-v2');
  }, 60_000);

  it('the same change without patched() breaks the old history', async () => {
    await assert.rejects(
      Worker.runReplayHistory({ workflowBundle: await bundle('v2-unpatched') }, v1.history, 'v1-on-unpatched'),
      DeterminismViolationError,
    );
  }, 60_000);

  it('a new run takes the new path and records the patch marker', async () => {
    const v2 = await run('v2');
    assert.deepEqual(v2.result, ['audited robin', 'notified robin']);
    assert.ok(hasPatchMarker(v2.history));
    assert.ok(!hasPatchMarker(v1.history));
    // and that new history replays too
    await Worker.runReplayHistory({ workflowBundle: await bundle('v2') }, v2.history, 'v2-on-v2');
  }, 60_000);
});
