// One step at a time inside one workflow run. Update handlers run concurrently (each
// awaits its activity), and a validator may pass against a state that an earlier,
// still-running change then moves on; steps that read and write the run's state take
// this lock and re-check once they hold it. Waiting is a `condition`, so taking the lock
// issues no command (histories replay the same with or without it).
import { condition } from '@temporalio/workflow';

export class Mutex {
  private held = false;

  /** Whether a step holds the lock now (e.g. not a moment to continue as new). */
  get locked(): boolean {
    return this.held;
  }

  /**
   * Runs `step` once the lock is free and `ready()` holds (one condition for both, so no
   * other waiter can slip in between), and frees it when `step` settles.
   */
  async runExclusive<T>(step: () => Promise<T>, ready: () => boolean = () => true): Promise<T> {
    await condition(() => !this.held && ready());
    this.held = true;
    try {
      return await step();
    } finally {
      this.held = false;
    }
  }
}
