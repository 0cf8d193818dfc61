// Number and Markdown formatting the webhook bench's reports share (report.ts, platform-report.ts).
import type { Dist } from './breakdown';
import type { PhaseResult } from './phase';

export const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
export const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');
export const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : v.toFixed(0)) : '–');
export const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)} %` : '–');
export const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
export const sep = (n: number, firstLeft = true) => row(Array.from({ length: n }, (_, i) => (i === 0 && firstLeft ? '---' : '---:')));

export function distRow(name: string, d: Dist, extra: Array<string | number> = []): string {
  return row([name, d.n, ms(d.p50), ms(d.p95), ms(d.p99), ms(d.max), ...extra]);
}

export function phaseRow(p: PhaseResult, label = ''): string {
  return row([
    `${label}${p.rate} × ${p.durationSec} s`,
    `${f0(p.source.achievedRate)}`,
    `${p.received} / ${p.expected}`,
    p.lost,
    f0(p.deliveredPerSec),
    f0(p.eventsPerSec),
    ms(p.latency.p50),
    ms(p.latency.p95),
    ms(p.latency.p99),
    ms(p.latency.max),
    `${ms(p.p50FirstSeconds)} → ${ms(p.p50LastSeconds)}`,
    ms(p.tailMs),
    `${ms(p.source.api.p50)} / ${ms(p.source.api.p99)}`,
    p.keepsUp ? 'yes' : '**no**',
  ]);
}

