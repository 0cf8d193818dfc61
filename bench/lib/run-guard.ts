// Every bench runner's safety net: its children are killed when the process exits, a
// Ctrl-C / SIGTERM / SIGHUP tears the stack down (exit 130), and a run that hangs is
// torn down by a watchdog (exit 1), whatever it waits for. `runGuarded` also runs the
// runner's main and tears down after it, on success and on failure alike.
import { killAllSync } from './procs';

export function guardRun(o: { log: (line: string) => void; teardown: () => Promise<void>; watchdogMs: number }): void {
  process.on('exit', killAllSync);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      o.log(`${sig}: tearing down`);
      void o.teardown().finally(() => process.exit(130));
    });
  }
  setTimeout(() => {
    o.log('watchdog: the run took too long; tearing down');
    void o.teardown().finally(() => process.exit(1));
  }, o.watchdogMs).unref();
}

/** guardRun, then `main`; the stack is torn down after it and the process exits with its code (1 if it threw). */
export function runGuarded(main: () => Promise<number>, o: Parameters<typeof guardRun>[0] & { label: string }): void {
  guardRun(o);
  main().then(
    async (code) => {
      await o.teardown();
      o.log('done');
      process.exit(code);
    },
    async (err) => {
      console.error(`[${o.label}] failed: ${(err as Error)?.stack ?? err}`);
      await o.teardown();
      process.exit(1);
    },
  );
}
