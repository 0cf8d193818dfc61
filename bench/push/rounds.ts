// The measured phases of bench:push as alternating rounds: app, peer, app, peer, … (or
// raw capacity, send, …), each pair close together in time, and the median of the pairs'
// ratios (docs/benchmarks.md: same-run ratios, the median of at least three runs). On a machine
// shared with other work, one long app window followed by one long peer window measures
// whatever else ran in either; pairs a few seconds apart see about the same machine.
import { withCpu, type CpuUse, type Groups } from '../lib/cpu';
import { median, type RunStats } from '../lib/load';

/** CPU milliseconds per request (or push) per component, over every round */
export type CpuMs = Record<string, number>;

export interface Pair<A, P> {
  app: A;
  peer: P;
  ratio: number;
}

export interface Rounds<A, P> {
  /** the pairs in the order they ran */
  pairs: Array<Pair<A, P>>;
  /** the median pair's figures and ratio */
  median: Pair<A, P>;
  cpuMsApp: CpuMs;
  cpuMsPeer: CpuMs;
}

/** CPU ms per unit across several measurements: Σ cpu time / Σ units, per component. */
class CpuTotals {
  private readonly ms: Record<string, number> = {};
  private units = 0;
  add(cpu: CpuUse, units: number): void {
    for (const [g, cores] of Object.entries(cpu.cores)) this.ms[g] = (this.ms[g] ?? 0) + cores * cpu.seconds * 1000;
    this.units += units;
  }
  perUnit(): CpuMs {
    const out: CpuMs = {};
    for (const [g, ms] of Object.entries(this.ms)) {
      const v = this.units ? ms / this.units : 0;
      if (v >= 0.001) out[g] = Math.round(v * 1000) / 1000;
    }
    return out;
  }
}

/**
 * `rounds` pairs of (app, peer) measurements, each with the CPU of every group; `ratio`
 * of a pair is app ÷ peer of `rate`. The median pair is the one with the median ratio.
 */
export async function alternate<A, P>(o: {
  rounds: number;
  groups: Groups;
  nproc: number;
  app: (round: number) => Promise<A>;
  peer: (round: number) => Promise<P>;
  appRate: (a: A) => number;
  peerRate: (p: P) => number;
  /** requests or pushes a measurement handled, for the CPU per unit */
  appUnits: (a: A) => number;
  peerUnits: (p: P) => number;
  /** the peer first in each pair (the sink's capacity before the send that uses it) */
  peerFirst?: boolean;
  onPair?: (pair: Pair<A, P>, round: number) => void;
}): Promise<Rounds<A, P>> {
  const pairs: Array<Pair<A, P>> = [];
  const appCpu = new CpuTotals();
  const peerCpu = new CpuTotals();
  for (let r = 0; r < o.rounds; r++) {
    const runApp = async () => {
      const { value, cpu } = await withCpu(o.groups, o.nproc, () => o.app(r));
      appCpu.add(cpu, o.appUnits(value));
      return value;
    };
    const runPeer = async () => {
      const { value, cpu } = await withCpu(o.groups, o.nproc, () => o.peer(r));
      peerCpu.add(cpu, o.peerUnits(value));
      return value;
    };
    let app: A;
    let peer: P;
    if (o.peerFirst) {
      peer = await runPeer();
      app = await runApp();
    } else {
      app = await runApp();
      peer = await runPeer();
    }
    const pair = { app, peer, ratio: o.appRate(app) / o.peerRate(peer) };
    pairs.push(pair);
    o.onPair?.(pair, r);
  }
  const m = median(pairs.map((p) => p.ratio));
  const mid = pairs.reduce((best, p) => (Math.abs(p.ratio - m) < Math.abs(best.ratio - m) ? p : best), pairs[0]);
  return { pairs, median: { ...mid, ratio: m }, cpuMsApp: appCpu.perUnit(), cpuMsPeer: peerCpu.perUnit() };
}

export const rps = (s: RunStats) => s.rps;
