// The platform phase's event source: platform ticket changes through /platform/v1 at a
// fixed, open-loop rate of EVENTS a second. Each ticket goes through three calls, each
// committing its events into the outbox (api 'platform') in the same transaction as the
// change:
//   POST  /platform/v1/tickets                      ticket.created                (the API's transaction)
//   PATCH {status: resolved, priority: high}        ticket.updated + ticket.resolved (the ticket workflow's step)
//   PATCH {status: closed}                          ticket.updated + ticket.closed
// 5 events in 3 calls. The calls are laid out in rounds: round r creates ticket r,
// resolves ticket r − L and closes ticket r − 2L, with L rounds a second. Rounds come at
// a steady pace, rate ÷ 5 a second, from the first one: tickets enter at one steady rate,
// as they do on a service with tickets at every stage of their lives. The first 2 s are
// therefore a ramp (20, then 60 events/s at 100 events/s: no resolves yet, then no
// closes), and the plan runs on until `count` events have been planned after it, so the
// full rate lasts as long as the phase says (docs/benchmarks.md, "The platform phase").
// Inside a round, call j is due when the round's events before it reach rate × t. A
// change waits for its ticket's previous call to be answered (it needs the ticket, and
// one change at a time is what a client does): a system that falls behind shows as
// generator lateness. A change whose ticket was never created is not sent. Bounded:
// `count` events after the ramp, each call abandoned after 30 s.
import { sleep } from '../lib/procs';
import { platformKey } from './receiver';
import { request, summarize, type Call, type SourceOptions, type SourceResult } from './source';

type Step = { kind: 'create'; ticket: number } | { kind: 'resolve' | 'close'; ticket: number };

const EVENTS_OF: Record<Step['kind'], string[]> = {
  create: ['ticket.created'],
  resolve: ['ticket.updated', 'ticket.resolved'],
  close: ['ticket.updated', 'ticket.closed'],
};
const CHANGE: Record<'resolve' | 'close', object> = { resolve: { status: 'resolved', priority: 'high' }, close: { status: 'closed' } };

/** The calls in due order, each with its due time (ms after the start) and how many events it makes. */
export function platformPlan(rate: number, count: number): Array<Step & { events: number; dueMs: number }> {
  const lag = Math.max(1, Math.round(rate / 5)); // rounds of 5 events: about a second
  const out: Array<Step & { events: number; dueMs: number }> = [];
  let afterRamp = 0;
  for (let r = 0; afterRamp < count; r++) {
    const round: Step[] = [{ kind: 'create', ticket: r }];
    if (r >= lag) round.push({ kind: 'resolve', ticket: r - lag });
    if (r >= 2 * lag) round.push({ kind: 'close', ticket: r - 2 * lag });
    let inRound = 0;
    for (const s of round) {
      if (afterRamp >= count) break;
      const events = EVENTS_OF[s.kind].length;
      out.push({ ...s, events, dueMs: ((r * 5 + inRound) / rate) * 1000 });
      inRound += events;
      if (r >= 2 * lag) afterRamp += events;
    }
  }
  return out;
}

export interface PlatformSourceOptions extends SourceOptions {
  /** the channel the tickets come in on (one of the workspace's) */
  channelId: string;
}

export async function runPlatformSource(o: PlatformSourceOptions): Promise<SourceResult> {
  const plan = platformPlan(o.rate, o.count);
  const calls: Call[] = [];
  const pending: Promise<void>[] = [];
  /** per ticket: its id once created (null: the create failed) and its last call */
  const tickets = new Map<number, { id: Promise<string | null>; last: Promise<unknown> }>();
  const t0 = performance.now() + 5;
  for (const step of plan) {
    const due = t0 + step.dueMs;
    if (due > performance.now()) await sleep(due - performance.now());
    if (step.kind === 'create') {
      const call: Call = { id: `${o.prefix}-${step.ticket}`, keys: [], due, start: performance.now() };
      calls.push(call);
      const body = JSON.stringify({
        subject: `Bench ticket ${o.prefix} ${step.ticket}`,
        body: 'The game crashes when I open the inventory.',
        channel_id: o.channelId,
        contact_email: `player${step.ticket}@example.com`,
      });
      const answered = request('POST', new URL('/platform/v1/tickets', o.api), o.token, body, true).then((r) => {
        settle(call, r, 201, step);
        return call.ok ? (r.body.id as string) : null;
      });
      tickets.set(step.ticket, { id: answered, last: answered });
      pending.push(answered.then(() => undefined));
      continue;
    }
    const t = tickets.get(step.ticket)!;
    // the change goes once its ticket's previous call is answered (not before its due time)
    const sent = t.last.then(async () => {
      const id = await t.id;
      if (!id) return; // the create failed: nothing to change, nothing expected
      const call: Call = { id: `${id}:${step.kind}`, keys: [], due, start: performance.now() };
      calls.push(call);
      const r = await request('PATCH', new URL(`/platform/v1/tickets/${id}`, o.api), o.token, JSON.stringify(CHANGE[step.kind]), true);
      settle(call, r, 200, step);
    });
    t.last = sent;
    pending.push(sent);
  }
  await Promise.all(pending);
  calls.sort((a, b) => a.start - b.start);
  return summarize(calls);
}

/** The answer of a call: ok or not, and the keys of its events (the ticket's id and updated_at in the answer). */
function settle(call: Call, r: { status?: number; error?: string; body?: any }, okStatus: number, step: Step): void {
  call.end = performance.now();
  call.status = r.status;
  call.error = r.error;
  call.ok = r.status === okStatus && typeof r.body?.id === 'string';
  if (call.ok) call.keys = EVENTS_OF[step.kind].map((type) => platformKey(r.body.id, type, r.body.updated_at));
}
