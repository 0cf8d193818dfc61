// Every bench runner's safety net: its children are killed when the process exits, a
// Ctrl-C / SIGTERM / SIGHUP tears the stack down (exit 130), and a run that hangs is
// torn down by a watchdog (exit 1), whatever it waits for.
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
