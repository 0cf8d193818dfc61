// A workflow that only takes the change lock (workflows/mutex.ts): each `bump` signal runs
// one step under it, and the run ends once `n` steps are done, answering how many ever
// held the lock at the same time (1 when the lock works).
import { condition, defineSignal, setHandler, sleep } from '@temporalio/workflow';
import { Mutex } from '../../workflows/mutex';

export const bumpSignal = defineSignal('bump');

export async function mutexProbeWorkflow(n: number): Promise<number> {
  const lock = new Mutex();
  let active = 0;
  let most = 0;
  let done = 0;
  setHandler(bumpSignal, () => {
    void lock.runExclusive(async () => {
      active += 1;
      most = Math.max(most, active);
      await sleep(10); // a step that waits (an activity, in the real workflows)
      active -= 1;
      done += 1;
    });
  });
  await condition(() => done >= n);
  return most;
}
