// The pure SLA deadline rules (domain/platform/sla.rules.ts) the ticket workflow and its
// activities apply, and the analytics window and summary shape (analytics.rules.ts).
import assert from 'node:assert/strict';
import { analyticsSummary, analyticsWindow, zeroCounts, type AnalyticsRow } from '../../domain/platform/analytics.rules';
import { nextSlaDeadline, pendingSlaDeadlines, slaBreachesAt, slaDueTimes, type SlaTicketFacts } from '../../domain/platform/sla.rules';
import { DomainError } from '../../domain/errors';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const facts = (o: Partial<SlaTicketFacts> = {}): SlaTicketFacts => ({
  status: 'open',
  deleted: false,
  firstResponded: false,
  breached: { first_response: false, resolution: false },
  ...o,
});
const due = { first_response: 60 * MIN, resolution: 480 * MIN };

describe('platform SLA deadlines', () => {
  it('are created_at plus the priority minutes of the active policies (stored, or the defaults)', () => {
    assert.deepEqual(slaDueTimes(1000, 'critical', null), { first_response: 1000 + 60 * MIN, resolution: 1000 + 480 * MIN });
    assert.deepEqual(slaDueTimes(0, 'low', null), { first_response: 1440 * MIN, resolution: 10080 * MIN });
    const stored = (['critical', 'high', 'normal', 'low'] as const).map((priority, i) => ({ priority, firstResponseMinutes: i + 1, resolutionMinutes: 10 * (i + 1) }));
    assert.deepEqual(slaDueTimes(0, 'normal', stored), { first_response: 3 * MIN, resolution: 30 * MIN });
  });

  it('the earlier pending one comes first; a reply meets the first response, a breach is never repeated', () => {
    assert.deepEqual(nextSlaDeadline(facts(), due), { policy: 'first_response', at: 60 * MIN });
    assert.deepEqual(nextSlaDeadline(facts({ firstResponded: true }), due), { policy: 'resolution', at: 480 * MIN });
    assert.deepEqual(nextSlaDeadline(facts({ breached: { first_response: true, resolution: false } }), due), { policy: 'resolution', at: 480 * MIN });
    assert.equal(nextSlaDeadline(facts({ firstResponded: true, breached: { first_response: false, resolution: true } }), due), null);
  });

  it('nothing is pending while resolved, closed or soft-deleted; pending does not pause them', () => {
    for (const o of [{ status: 'resolved' as const }, { status: 'closed' as const }, { deleted: true }]) assert.deepEqual(pendingSlaDeadlines(facts(o), due), []);
    assert.equal(pendingSlaDeadlines(facts({ status: 'pending' }), due).length, 2);
  });

  it('breaches at the deadline itself, not a millisecond before', () => {
    assert.equal(slaBreachesAt(facts(), due, 'first_response', 60 * MIN - 1), false);
    assert.equal(slaBreachesAt(facts(), due, 'first_response', 60 * MIN), true);
    assert.equal(slaBreachesAt(facts({ firstResponded: true }), due, 'first_response', DAY), false);
  });
});

describe('the analytics window', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const field = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      assert.ok(err instanceof DomainError);
      return Object.keys((err.details as { errors: Record<string, unknown> }).errors)[0];
    }
    return 'taken';
  };

  it('defaults to the 30 days before now; from alone or to alone take the other from the default', () => {
    assert.deepEqual(analyticsWindow({}, now), { from: new Date('2026-10-28T12:00:00Z'), to: now });
    assert.deepEqual(analyticsWindow({ to: '2026-02-01T00:00:00Z' }, now), { from: new Date('2026-01-02T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') });
    assert.deepEqual(analyticsWindow({ from: '2026-11-01T00:00:00Z' }, now).to, now);
  });

  it('refuses an empty or reversed window, one over 366 days, and instants out of range', () => {
    assert.equal(field(() => analyticsWindow({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now)), 'from');
    assert.equal(field(() => analyticsWindow({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now)), 'from');
    assert.equal(field(() => analyticsWindow({ from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' }, now)), 'taken');
    assert.equal(field(() => analyticsWindow({ from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00.001Z' }, now)), 'to');
    assert.equal(field(() => analyticsWindow({ to: '1969-12-31T00:00:00Z' }, now)), 'to');
    assert.equal(field(() => analyticsWindow({ to: '1970-01-10T00:00:00Z' }, now)), 'from');
    assert.equal(field(() => analyticsWindow({ to: '2026-11-27T10:00:00+25:00' }, now)), 'to');
  });
});

describe('the analytics summary shape', () => {
  it('lists every priority and every channel, zeros where no row counted', () => {
    const row = (o: Partial<AnalyticsRow>): AnalyticsRow => ({ ...zeroCounts(), priority: null, channelId: null, ...o });
    const s = analyticsSummary([row({ created: 2 }), row({ priority: 'high', created: 2 }), row({ channelId: 'ch_b', created: 2 })], ['ch_a', 'ch_b']);
    assert.equal(s.totals.created, 2);
    assert.deepEqual(s.byPriority.map((p) => [p.priority, p.created]), [['critical', 0], ['high', 2], ['normal', 0], ['low', 0]]);
    assert.deepEqual(s.byChannel.map((c) => [c.channelId, c.created]), [['ch_a', 0], ['ch_b', 2]]);
    assert.deepEqual(analyticsSummary([], []).totals, zeroCounts());
  });
});
