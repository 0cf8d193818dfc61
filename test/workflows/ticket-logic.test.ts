import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../domain/workspaces/settings.rules';
import {
  checkChange,
  nextDeadline,
  pendingDeadlines,
  statusAfterAssign,
  statusAfterMessage,
  STATUSES,
  TRANSITIONS,
  type TimerFacts,
} from '../../domain/tickets/rules';

test('the transition matrix: closed is terminal, resolving twice is refused', () => {
  for (const from of STATUSES) {
    for (const to of STATUSES) {
      const r = checkChange(from, 'patch', to);
      if (from === 'closed') {
        assert.equal(r?.type, to === 'closed' ? 'ticket_already_closed' : 'invalid_status_transition', `${from}->${to}`);
      } else if (from === 'resolved' && to === 'resolved') {
        assert.equal(r?.type, 'invalid_status_transition');
      } else {
        assert.equal(r, null, `${from}->${to}`);
        assert.ok(TRANSITIONS[from].includes(to));
      }
    }
  }
});

test('on a closed ticket every change is 409 except another status (422) and delete', () => {
  for (const kind of ['assign', 'resolve', 'message'] as const) assert.equal(checkChange('closed', kind)?.type, 'ticket_already_closed');
  assert.equal(checkChange('closed', 'patch')?.type, 'ticket_already_closed');
  assert.equal(checkChange('closed', 'patch', 'open')?.type, 'invalid_status_transition');
  assert.equal(checkChange('closed', 'delete'), null);
  assert.equal(checkChange('resolved', 'resolve')?.type, 'invalid_status_transition');
  assert.equal(checkChange('in_progress', 'resolve'), null);
});

test('assignment and replies move the status as documented', () => {
  assert.equal(statusAfterAssign('open'), 'in_progress');
  assert.equal(statusAfterAssign('resolved'), 'resolved');
  assert.equal(statusAfterMessage('resolved', 'player', null), 'open');
  assert.equal(statusAfterMessage('resolved', 'player', 'agt_1'), 'in_progress');
  assert.equal(statusAfterMessage('resolved', 'agent', null), 'resolved');
  assert.equal(statusAfterMessage('open', 'player', null), 'open');
});

const HOUR = 3600_000;
const facts = (over: Partial<TimerFacts> = {}): TimerFacts => ({
  status: 'open',
  priority: 'urgent',
  createdAt: 0,
  resolvedAt: null,
  firstResponseAt: null,
  autoCloseHours: 72,
  sla: DEFAULT_SETTINGS.sla,
  breached: { first_response: false, resolution: false },
  ...over,
});

test('deadlines: SLA from creation, auto-close from resolution', () => {
  assert.deepEqual(nextDeadline(facts()), { kind: 'sla_first_response', at: 60 * 60_000 });
  assert.deepEqual(pendingDeadlines(facts({ firstResponseAt: 5 })).map((d) => d.kind), ['sla_resolution']);
  assert.deepEqual(nextDeadline(facts({ status: 'resolved', resolvedAt: 10 * HOUR })), { kind: 'auto_close', at: 82 * HOUR });
  assert.deepEqual(nextDeadline(facts({ status: 'resolved', resolvedAt: 0, autoCloseHours: 24 })), { kind: 'auto_close', at: 24 * HOUR });
  assert.equal(nextDeadline(facts({ status: 'closed' })), null);
  assert.deepEqual(pendingDeadlines(facts({ breached: { first_response: true, resolution: true } })), []);
  assert.equal(nextDeadline(facts({ priority: 'low', firstResponseAt: 1 }))!.at, DEFAULT_SETTINGS.sla.low.resolutionMinutes * 60_000);
});
