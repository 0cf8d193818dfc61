// The determinism guard: every recorded history under histories/ replays against the
// current code of its queue's bundle, and every workflow type of every queue has at
// least one. A change that would break workflows already running fails here, before it
// reaches them (how to make such a change safely: docs/workflows.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { QUEUES } from '../../workers/registry';
import type { QueueEntry } from '../../workers/queue-entry';

const dir = join(__dirname, 'histories');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };
const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();
const bundleOf = (entry: QueueEntry) => {
  if (!bundles.has(entry.name)) bundles.set(entry.name, bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: quiet }));
  return bundles.get(entry.name)!;
};

function load(file: string) {
  const history = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const type: string = history.events[0].workflowExecutionStartedEventAttributes.workflowType.name;
  return { history, type };
}

describe('recorded histories replay on their queue', () => {
  for (const file of files) {
    it(`${file}`, async () => {
      const { history, type } = load(file);
      const entry = Object.values(QUEUES).find((e) => e.workflowTypes.includes(type));
      assert.ok(entry, `${file}: no queue runs ${type}`);
      await Worker.runReplayHistory({ workflowBundle: await bundleOf(entry) }, history, `replay-${file}`);
    }, 120_000);
  }

  it('every workflow type of every queue has a recorded history', () => {
    const recorded = new Set(files.map((f) => load(f).type));
    const missing = Object.values(QUEUES).flatMap((e) => e.workflowTypes.filter((t) => !recorded.has(t)));
    assert.deepEqual(missing, [], 'record them with test/workflows/record-histories.ts');
  });
});
