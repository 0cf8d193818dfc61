// The push fault run's report (test/faults/push-killed.test.ts): one row per phase with
// its requests, its failed attempts by kind, the repeated pushes that arrived in it and
// how long the system took to serve again after the restart.
import type { Attempt } from './careful-client';

export interface Phase {
  name: string;
  /** Date.now() when the phase began (its kill) */
  from: number;
  recoverySeconds?: number;
}

/** The phase an instant belongs to: the last one begun by then. */
export const phaseAt = (phases: Phase[], at: number): string => [...phases].reverse().find((p) => p.from <= at)!.name;

const kindsOf = (as: Attempt[]) =>
  Object.entries(as.reduce<Record<string, number>>((n, a) => ((n[a.status] = (n[a.status] ?? 0) + 1), n), {}))
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');

export function printPhaseTable(phases: Phase[], attempts: Attempt[], failures: Attempt[], repeats: Map<string, number>): void {
  const inPhase = (a: Attempt, p: string) => phaseAt(phases, a.at) === p;
  console.table(
    phases.map((p) => ({
      phase: p.name,
      requests: attempts.filter((a) => inPhase(a, p.name)).length,
      failures: failures.filter((a) => inPhase(a, p.name)).length,
      kinds: kindsOf(failures.filter((a) => inPhase(a, p.name))),
      repeats: repeats.get(p.name) ?? 0,
      recoverySeconds: p.recoverySeconds ?? '-',
    })),
  );
}
