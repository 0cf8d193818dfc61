// CPU used per component during a phase, from /proc (Linux only; elsewhere empty): the
// user+system time of every process of a child's process group (tsx and its node), of
// Postgres and Redis (all their processes: other databases' sessions included), of this
// bench process, and the machine's busy time from /proc/stat. On two shared cores this
// says which component a phase was bound by, and whether something else was running.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* the usual value */
}

export type Groups = Record<string, (p: { pid: number; ppid: number; pgrp: number; comm: string }) => boolean>;

export interface CpuSnapshot {
  at: number;
  /** per group: ticks of each of its processes (a process that exits meanwhile takes its ticks along) */
  ticks: Record<string, Map<number, number>>;
  machineBusy: number;
  machineTotal: number;
}

function machine(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((s, x) => s + x, 0); // guest time is already in user
    const idle = v[3] + (v[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export function snapshot(groups: Groups): CpuSnapshot {
  const ticks: Record<string, Map<number, number>> = Object.fromEntries(Object.keys(groups).map((g) => [g, new Map<number, number>()]));
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    /* not Linux */
  }
  for (const d of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${d}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    const p = { pid: Number(d), ppid: Number(f[1]), pgrp: Number(f[2]), comm };
    const t = Number(f[11]) + Number(f[12]);
    for (const [g, match] of Object.entries(groups)) if (match(p)) ticks[g].set(p.pid, t);
  }
  const m = machine();
  return { at: performance.now(), ticks, machineBusy: m.busy, machineTotal: m.total };
}

export interface CpuUse {
  seconds: number;
  /** cores used on average over the phase, per group */
  cores: Record<string, number>;
  /** the whole machine: busy cores on average, and what the named groups do not explain */
  machineCores: number;
  otherCores: number;
}

export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot, nproc: number): CpuUse {
  const seconds = (b.at - a.at) / 1000;
  const cores: Record<string, number> = {};
  for (const g of Object.keys(a.ticks)) {
    // per process: what it used since the first snapshot, or since it started
    let used = 0;
    for (const [pid, t] of b.ticks[g]) used += Math.max(0, t - (a.ticks[g].get(pid) ?? 0));
    cores[g] = used / clkTck / seconds;
  }
  const total = b.machineTotal - a.machineTotal;
  const machineCores = total > 0 ? ((b.machineBusy - a.machineBusy) / total) * nproc : NaN;
  const named = Object.values(cores).reduce((s, v) => s + v, 0);
  return { seconds, cores, machineCores, otherCores: Math.max(0, machineCores - named) };
}

/**
 * Waits (at most `maxMs`) until the machine is quiet — under `belowCores` busy over one
 * second — so a phase does not start in the tail of the previous one (the Temporal server
 * finishing a peer's workflows, say). Returns how long it waited.
 */
export async function waitForQuiet(nproc: number, belowCores = 0.35, maxMs = 15_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const a = machine();
    await new Promise((r) => setTimeout(r, 1000));
    const b = machine();
    const busy = b.total > a.total ? ((b.busy - a.busy) / (b.total - a.total)) * nproc : 0;
    if (busy < belowCores || performance.now() - started >= maxMs) return performance.now() - started;
  }
}

/** Runs `fn` and answers the cores each group used over it. */
export async function withCpu<T>(groups: Groups, nproc: number, fn: () => Promise<T>): Promise<{ value: T; cpu: CpuUse }> {
  const a = snapshot(groups);
  const value = await fn();
  return { value, cpu: cpuBetween(a, snapshot(groups), nproc) };
}
