// The one polling helper of the tests: for effects that happen "soon" (a workflow that
// runs, a row a worker writes, a process that comes up or goes away, a mail that arrives).
import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** how long to keep trying (default 15 s) */
  timeoutMs?: number;
  /** the pause between two tries (default 100 ms) */
  everyMs?: number;
  /** what was awaited, for the failure message */
  what?: string | (() => string);
}

/**
 * Calls `check` until it answers a truthy value and resolves with that value; rejects,
 * naming `what`, once `timeoutMs` has passed.
 */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  o: EventuallyOptions = {},
): Promise<T> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const what = typeof o.what === 'function' ? o.what() : (o.what ?? 'condition');
      throw new Error(`not met within ${timeoutMs} ms: ${what}`);
    }
    await sleep(o.everyMs ?? 100);
  }
}
