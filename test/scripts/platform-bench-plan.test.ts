// The platform phase's plan of calls (bench/webhooks/platform-source.ts): tickets enter at
// one steady rate from the first round, the first 2 s are the ramp, and the full rate then
// carries the phase's count of events (docs/benchmarks.md, "The platform phase").
import assert from 'node:assert/strict';
import { platformPlan } from '../../bench/webhooks/platform-source';

/** events per whole second of due time */
function eventsBySecond(plan: ReturnType<typeof platformPlan>): number[] {
  const out: number[] = [];
  for (const c of plan) {
    const s = Math.floor(c.dueMs / 1000);
    out[s] = (out[s] ?? 0) + c.events;
  }
  return out;
}

test('at 100 events/s: 20 creates a second from the start, a 2 s ramp, then 100 events a second for the count', () => {
  const plan = platformPlan(100, 3000);
  const creates = plan.filter((c) => c.kind === 'create');
  assert.ok(creates.every((c, i) => Math.abs(c.dueMs - i * 50) < 1e-9), 'a create every 50 ms from the first');
  const perSecond = eventsBySecond(plan);
  assert.deepEqual(perSecond.slice(0, 3), [20, 60, 100]);
  assert.ok(perSecond.slice(2, -1).every((n) => n === 100), `the full rate after the ramp: ${perSecond.join(', ')}`);
  const total = plan.reduce((n, c) => n + c.events, 0);
  assert.equal(total, 80 + 3000, "the ramp's 80 events, then the phase's count");
  assert.ok(plan.every((c, i) => i === 0 || c.dueMs >= plan[i - 1].dueMs), 'calls in due order');
});

test("a ticket's resolve comes about a second after its create and its close about a second after that", () => {
  const plan = platformPlan(100, 3000);
  const due = (kind: string, ticket: number) => plan.find((c) => c.kind === kind && c.ticket === ticket)!.dueMs;
  for (const t of [0, 7, 60]) {
    assert.ok(Math.abs(due('resolve', t) - due('create', t) - 1000) < 25, `ticket ${t}'s resolve`);
    assert.ok(Math.abs(due('close', t) - due('resolve', t) - 1000) < 25, `ticket ${t}'s close`);
  }
});
