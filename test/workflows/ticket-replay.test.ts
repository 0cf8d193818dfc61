// Replays recorded ticket histories against the current workflow code: a change that
// breaks determinism for tickets already running fails here, before it reaches them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../support/temporal';

const dir = join(__dirname, 'histories');

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  test(`replays ${file} deterministically`, async () => {
    const history = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${file}`);
  });
}
