// The webhook bench's platform phase (docs/benchmarks.md, "The platform phase"): its own
// warm-up, the measured run at the platform rate, and, when that run misses its aim, lower
// rates highest first until one meets it (how far this machine carries the platform path).
import type { CpuUse } from '../lib/cpu';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { runPhase, type PhaseOptions, type PhaseResult } from './phase';
import { platformAimMet } from './platform-report';
import { runPlatformSource } from './platform-source';
import type { Receiver } from './receiver';
import type { Measured } from './report';
import type { Call } from './source';
import type { TemporalPhaseMetrics } from './temporal-metrics';

export interface PlatformPhaseDeps {
  /** the /v1 phases' options; the platform phase swaps in its tenant, token and source */
  base: Omit<PhaseOptions, 'name' | 'prefix' | 'rate' | 'durationSec'>;
  platform: PlatformTenant;
  receiver: Receiver;
  runId: string;
  config: { platformRate: number; platformSec: number; platformStepsDown: number[]; stepSec: number; warmSec: number };
  measure<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: CpuUse; temporal?: TemporalPhaseMetrics }>;
  log(line: string): void;
  phaseLine(p: PhaseResult): string;
  /** called with each result as it comes (the run's results file is written on each) */
  onResult(name: string, measured: Measured, calls: Call[], step: boolean): void;
}

export async function runPlatformPhase(d: PlatformPhaseDeps): Promise<void> {
  const { config, receiver, runId } = d;
  const pbase = { ...d.base, token: d.platform.adminToken, workspaceId: d.platform.workspaceId, source: runPlatformSourceOn(d.platform) };
  // its own warm-up, unrecorded: the platform routes, the platform worker's first workflows and updates
  const w = await runPhase({ ...pbase, name: 'platform warm-up', prefix: `pwarm-${runId}`, rate: 20, durationSec: config.warmSec }, receiver);
  d.log(`platform warm-up: ${w.result.received}/${w.result.expected} delivered, p50 ${w.result.latency.p50.toFixed(0)} ms`);
  if (w.result.received === 0) throw new Error('no platform delivery reached the receiver during its warm-up');

  const measured = async (name: string, prefix: string, rate: number, durationSec: number) => {
    const { value, cpu, temporal } = await d.measure(() => runPhase({ ...pbase, name, prefix, rate, durationSec }, receiver));
    return { result: value.result, measured: { ...value.result, cpu, temporal }, calls: value.calls };
  };
  const run = await measured('platform', `platform-${runId}`, config.platformRate, config.platformSec);
  d.log(`platform ${d.phaseLine(run.result)}; from the change (event time) p50 ${run.result.sinceChange.p50.toFixed(0)} p99 ${run.result.sinceChange.p99.toFixed(0)} ms; p99 by 5 s of the run ${run.result.sinceChangeP99By5s.join(', ')} ms`);
  d.onResult('platform', run.measured, run.calls, false);
  if (platformAimMet(run.result)) return;
  for (const rate of config.platformStepsDown.filter((x) => x < config.platformRate)) {
    const step = await measured(`platform ${rate}`, `pstep${rate}-${runId}`, rate, config.stepSec);
    d.log(`platform step ${d.phaseLine(step.result)}; from the change p99 ${step.result.sinceChange.p99.toFixed(0)} ms; p99 by 5 s ${step.result.sinceChangeP99By5s.join(', ')} ms`);
    d.onResult(`platform ${rate}`, step.measured, step.calls, true);
    if (platformAimMet(step.result)) break;
  }
}

/** Platform ticket changes on the tenant's API channel (platform-source.ts). */
function runPlatformSourceOn(platform: PlatformTenant): PhaseOptions['source'] {
  return (o) => runPlatformSource({ ...o, channelId: platform.channelIds.api });
}
