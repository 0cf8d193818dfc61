// The platform phase's part of the webhook bench's report (docs/benchmarks.md, "The platform phase"): its
// aims and its section beside /v1's main run.
import { distRow, f0, f1, ms, pct, phaseRow, row, sep } from './format';
import type { PhaseResult } from './phase';
import type { Measured, TargetCheck, WebhookResults } from './report';

/**
 * The platform phase's aims (docs/benchmarks.md, "The platform phase"): p99 under 500 ms from the change to
 * the receiver, 0 lost, and its ratio to the same run's Temporal peer, computed as the /v1
 * aim computes it (deliveries/s of the phase ÷ the peer's workflows/s).
 */
/** The phase's aim: p99 under 500 ms from the change to the receiver, nothing lost, no failed call. */
export function platformAimMet(p: PhaseResult): boolean {
  return p.sinceChange.p99 < 500 && p.lost === 0 && p.source.failed === 0 && p.badSignature === 0;
}

export function platformTargets(r: WebhookResults): TargetCheck[] {
  const p = r.platform;
  if (!p) return [];
  const out: TargetCheck[] = [];
  out.push({
    aim: `platform: p99 < 500 ms at ${p.rate} events/s from the change (the event's time) → receiver`,
    measured: `p99 ${ms(p.sinceChange.p99)} ms (p50 ${ms(p.sinceChange.p50)}, max ${ms(p.sinceChange.max)}); from the API call's start, as /v1 measures: p99 ${ms(p.latency.p99)} ms (p50 ${ms(p.latency.p50)})`,
    met: p.sinceChange.p99 < 500,
  });
  const final = r.finalLoss?.platform;
  const lost = final ? final.expected - final.received : p.lost;
  out.push({
    aim: `platform: zero loss at ${p.rate} events/s`,
    measured: `${p.received} of ${p.expected} deliveries within the ${r.config.drainSec} s drain; ${lost} missing at the end of the run; ${p.duplicates} duplicates; ${p.badSignature} bad signatures; ${p.source.failed} failed API calls`,
    met: lost === 0 && p.source.failed === 0 && p.badSignature === 0,
  });
  const steps = r.platformSteps ?? [];
  if (steps.length) {
    const met = steps.find(platformAimMet);
    out.push({
      aim: '(information) platform: the highest rate tried that meets the aim on this machine',
      measured: met
        ? `${met.rate} events/s: p99 ${ms(met.sinceChange.p99)} ms from the change, ${met.received} of ${met.expected} delivered (tried ${steps.map((s) => s.rate).join(', ')} events/s for ${met.durationSec} s each)`
        : `none of ${steps.map((s) => s.rate).join(', ')} events/s`,
      met: Boolean(met),
    });
  }
  const peer = r.temporalPeer?.normal;
  if (peer) {
    out.push({
      aim: '(information) platform: deliveries/s vs the Temporal peer, as the /v1 aim computes it',
      measured: `${f0(p.deliveredPerSec)} deliveries/s at ${p.rate} events/s (${p.keepsUp ? 'kept up' : 'did NOT keep up'}) vs ${f1(peer.rps)} workflows/s: **${pct(p.deliveredPerSec / peer.rps)}**`,
      met: p.keepsUp,
    });
  }
  return out;
}

/** The platform phase beside /v1's main run: the same columns, then the latency from the change. */
export function platformSection(r: WebhookResults, p: Measured, v1: Measured | undefined): string[] {
  const L: string[] = ['## Platform phase, beside /v1', ''];
  L.push(
    `Event source: platform ticket changes through \`/platform/v1\` with a \`service_test_\` admin token of a tenant of its own: each ticket is created (\`ticket.created\`), ` +
      `a second later resolved (PATCH: \`ticket.updated\` + \`ticket.resolved\`, a step of the ticket's workflow on the \`platform\` worker) and a second after that closed ` +
      `(\`ticket.updated\` + \`ticket.closed\`): 5 events in 3 calls, open loop at ${p.rate} events/s (a change waits for its ticket's previous call). ` +
      `${r.config.endpoints} platform endpoints subscribed to the four types (registered via ${r.platformEndpointsVia ?? '?'}) on the same receiver; the platform API's schedule, envelope and signature. ` +
      `"From the change" is the event's own time (the envelope's \`created_at\`: the API's or the workflow step's clock) → arrival; "from the call" is the API call's start → arrival, as /v1 measures.`,
    '',
  );
  L.push(row(['phase', 'calls/s sent', 'deliveries received / expected', 'lost (after drain)', 'delivered/s', 'events delivered/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'p50 first → last 2 s', 'tail ms', 'API p50 / p99 ms', 'keeps up']));
  L.push(sep(14));
  if (r.main) L.push(phaseRow(r.main, '/v1 main: '));
  L.push(phaseRow(p, 'platform: '));
  for (const s of r.platformSteps ?? []) L.push(phaseRow(s, 'platform step: '));
  L.push('');
  L.push(row(['latency of every delivery', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms']), sep(6));
  if (r.main) L.push(distRow('/v1 main, from the change (event timestamp)', r.main.sinceChange));
  L.push(distRow('platform, from the change (event created_at)', p.sinceChange));
  L.push(distRow('platform, from the API call start', p.latency));
  for (const s of r.platformSteps ?? []) L.push(distRow(`platform step ${s.rate} events/s, from the change`, s.sinceChange));
  L.push('');
  // older results files have no windows
  const by5s = (x: typeof p) => (x.sinceChangeP99By5s ?? []).map((v) => ms(v)).join(', ');
  L.push(`p99 from the change by 5 s of calls (the start against the steady state): platform ${by5s(p)} ms` + (r.platformSteps ?? []).map((s) => `; step ${s.rate} events/s ${by5s(s)} ms`).join('') + '.', '');
  const peer = r.temporalPeer?.normal;
  L.push(
    `Platform run: ${p.source.ok} API calls OK, ${p.source.failed} failed (${JSON.stringify(p.source.statusCodes)}); ${p.duplicates} duplicate deliveries, ${p.badSignature} bad signatures; ` +
      `generator lateness p99 ${ms(p.source.lateness.p99)} ms (max ${ms(p.source.lateness.max)}).` +
      (peer
        ? ` Same-run ratio to the Temporal peer (${f1(peer.rps)} workflows/s): platform ${pct(p.deliveredPerSec / peer.rps)} (${f0(p.deliveredPerSec)} deliveries/s at ${p.rate} events/s)` +
          (v1 ? `, /v1 ${pct(v1.deliveredPerSec / peer.rps)} (${f0(v1.deliveredPerSec)} deliveries/s at ${v1.rate} events/s, its highest rate that kept up).` : '.')
        : ''),
    '',
  );
  return L;
}
