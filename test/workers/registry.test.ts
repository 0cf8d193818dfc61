// The worker registry: one entry per task queue, each bundling only its own workflows.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { QUEUES, TASK_QUEUES } from '../../workers/registry';

const ROOT = join(__dirname, '..', '..');
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };
const entries = Object.values(QUEUES);

describe('worker registry', () => {
  it('has one entry per task queue, keyed by its name', () => {
    assert.deepEqual(TASK_QUEUES, ['ticketing', 'webhooks', 'push', 'onboarding', 'platform']);
    for (const [key, entry] of Object.entries(QUEUES)) assert.equal(entry.name, key);
    assert.equal(new Set(entries.map((e) => e.workflowsPath)).size, entries.length, 'one workflows module per queue');
  });

  it('the queues whose workflows start from the workflow-start outbox run its dispatcher', () => {
    assert.deepEqual(entries.filter((e) => e.startsFromOutbox).map((e) => e.name), ['ticketing', 'push', 'onboarding', 'platform']);
  });

  it("each queue's workflows module exports exactly its workflow types", () => {
    for (const entry of entries) {
      const exported = Object.entries(require(entry.workflowsPath) as Record<string, unknown>)
        .filter(([, v]) => typeof v === 'function')
        .map(([k]) => k);
      assert.deepEqual(exported.sort(), [...entry.workflowTypes].sort(), entry.name);
    }
  });

  it("each queue's bundle contains its own workflows and none of another queue's", async () => {
    for (const entry of entries) {
      const { code } = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: quiet });
      const defines = (type: string) => new RegExp(`function ${type}\\(`).test(code);
      for (const type of entry.workflowTypes) assert.ok(defines(type), `${entry.name} bundles ${type}`);
      for (const other of entries.filter((e) => e !== entry)) {
        for (const type of other.workflowTypes) assert.ok(!defines(type), `${entry.name} must not bundle ${other.name}'s ${type}`);
      }
    }
  }, 120_000);

  it('workers/list-queues.ts prints the registry, which the test services and npm start read', () => {
    const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['workers/list-queues.ts'], { cwd: ROOT, encoding: 'utf8' });
    assert.deepEqual(out.trim().split('\n'), TASK_QUEUES);
  });
});
