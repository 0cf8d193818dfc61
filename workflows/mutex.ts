// One step at a time inside one workflow run. Update handlers run concurrently (each
// awaits its activity), and a validator may pass against a state that an earlier,
// still-running change then moves on; steps that read and write the run's state take
// this lock and re-check once they hold it. Waiting is a `condition`; taking the lock
// issues no command of its own (its one patch marker aside, below).
//
// The lock is taken inside the condition's check, in the same evaluation that finds it
// free. The SDK resolves every blocked condition whose check holds in one pass, before
// any of their continuations runs; a lock taken in the continuation was therefore taken
// by every waiter found ready in that pass (two Updates delivered in one activation both
// ran their step as the same version: docs/workflows.md, "The change lock"). Runs that
// started before the fix keep the old behaviour on replay (`patched`), so their recorded
// histories replay unchanged.
import { condition, patched } from '@temporalio/workflow';

export const MUTEX_ATOMIC_PATCH = 'mutex-atomic-take';

export class Mutex {
  private held = false;

  /** Whether a step holds the lock now (e.g. not a moment to continue as new). */
  get locked(): boolean {
    return this.held;
  }

  /**
   * Runs `step` once the lock is free and `ready()` holds, and frees it when `step`
   * settles. Waiters are let in one at a time, in the order the SDK checks conditions.
   */
  async runExclusive<T>(step: () => Promise<T>, ready: () => boolean = () => true): Promise<T> {
    if (patched(MUTEX_ATOMIC_PATCH)) {
      await condition(() => {
        if (this.held || !ready()) return false;
        this.held = true; // taken by the check that found it free: the next waiter's check sees it held
        return true;
      });
    } else {
      await condition(() => !this.held && ready());
      this.held = true;
    }
    try {
      return await step();
    } finally {
      this.held = false;
    }
  }
}
