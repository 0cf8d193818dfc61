import assert from 'node:assert/strict';
import { ONE_ATTEMPT, PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { attemptTimes, checkSchedule, classifyOutcome, isSuccess, RECEIVER_TIMEOUT_MS } from '../../domain/webhooks/retry.rules';
import { SCHEDULE_BEFORE_INPUTS, tallyOf } from '../../workflows/webhook-delivery/delivery.logic';

const MIN = 60_000;
const HOUR = 60 * MIN;
const TICKETING = TICKETING_RETRY_SCHEDULE.delaysMs;
const PLATFORM = PLATFORM_RETRY_SCHEDULE.delaysMs;

test("each spec's schedule, as data: 5 attempts each, 30 s time-out; only the platform pauses", () => {
  assert.deepEqual(TICKETING, [0, 5 * MIN, 30 * MIN, 2 * HOUR, 8 * HOUR]);
  assert.equal(TICKETING_RETRY_SCHEDULE.onExhausted, undefined);
  assert.deepEqual(PLATFORM, [0, 1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR]);
  assert.equal(PLATFORM_RETRY_SCHEDULE.onExhausted, 'pause-endpoint');
  assert.deepEqual(ONE_ATTEMPT.delaysMs, [0]);
  assert.equal(RECEIVER_TIMEOUT_MS, 30_000);
  for (const s of [TICKETING_RETRY_SCHEDULE, PLATFORM_RETRY_SCHEDULE, TICKETING, PLATFORM]) assert.ok(Object.isFrozen(s));
  // workflows started before the schedule was an input keep the ticketing one
  assert.deepEqual([...SCHEDULE_BEFORE_INPUTS], TICKETING);
});

test('checkSchedule: 1 to 10 attempts, the first at once, whole non-negative waits', () => {
  for (const ok of [[0], TICKETING, PLATFORM, [0, 0, 1]]) assert.doesNotThrow(() => checkSchedule(ok));
  for (const bad of [[], [1000], [0, -1], [0, 1.5], [0, NaN], Array(11).fill(0)]) assert.throws(() => checkSchedule(bad), RangeError, JSON.stringify(bad));
});

test('attemptTimes: the five exact times from the first attempt', () => {
  const t0 = Date.parse('2025-03-01T10:00:00.000Z');
  const iso = attemptTimes(t0, TICKETING).map((t) => new Date(t).toISOString());
  assert.deepEqual(iso, [
    '2025-03-01T10:00:00.000Z', // +0
    '2025-03-01T10:05:00.000Z', // +5 min
    '2025-03-01T10:35:00.000Z', // +35 min
    '2025-03-01T12:35:00.000Z', // +2 h 35 min
    '2025-03-01T20:35:00.000Z', // +10 h 35 min
  ]);
  assert.deepEqual(
    attemptTimes(0, TICKETING),
    [0, 5 * MIN, 35 * MIN, 2 * HOUR + 35 * MIN, 10 * HOUR + 35 * MIN],
  );
  // the platform's: +0, +1 min, +6 min, +36 min, +2 h 36 min
  assert.deepEqual(attemptTimes(0, PLATFORM), [0, 1 * MIN, 6 * MIN, 36 * MIN, 2 * HOUR + 36 * MIN]);
});

test('isSuccess: exactly 200-299', () => {
  for (const s of [200, 201, 204, 299]) assert.equal(isSuccess(s), true, String(s));
  for (const s of [100, 199, 300, 301, 304, 400, 401, 404, 429, 500, 503, 0, 200.5]) assert.equal(isSuccess(s), false, String(s));
});

test('classifyOutcome: non-2xx, time-out and unreachable are failures', () => {
  assert.deepEqual(classifyOutcome({ status: 204 }), { ok: true, status: 204 });
  assert.deepEqual(classifyOutcome({ status: 302 }), { ok: false, reason: 'non_2xx', detail: 'receiver answered 302' });
  assert.equal(classifyOutcome({ status: 500 }).ok, false);
  assert.deepEqual(classifyOutcome({ timedOut: true }), { ok: false, reason: 'timeout', detail: 'no answer within 30 s' });
  // an answer that did not complete in time is a time-out even if the status line arrived
  assert.equal((classifyOutcome({ status: 200, timedOut: true }) as { reason: string }).reason, 'timeout');
  assert.deepEqual(classifyOutcome({ error: 'connect ECONNREFUSED 203.0.113.9:443' }), {
    ok: false,
    reason: 'unreachable',
    detail: 'connect ECONNREFUSED 203.0.113.9:443',
  });
  assert.deepEqual(classifyOutcome({}), { ok: false, reason: 'unreachable', detail: 'no answer' });
});

test('tallyOf: one more for each outcome, on top of the tally so far', () => {
  assert.deepEqual(tallyOf([]), { succeeded: 0, failed: 0, skipped: 0 });
  assert.deepEqual(tallyOf(['succeeded', 'failed', 'skipped', 'succeeded']), { succeeded: 2, failed: 1, skipped: 1 });
  const before = { succeeded: 3, failed: 1, skipped: 0 };
  assert.deepEqual(tallyOf(['skipped'], before), { succeeded: 3, failed: 1, skipped: 1 });
  assert.deepEqual(before, { succeeded: 3, failed: 1, skipped: 0 }, 'the tally passed in is not changed');
});

test('the rules and logic modules are workflow-safe: type imports only', async () => {
  const { readFile } = await import('node:fs/promises');
  for (const file of ['../../domain/webhooks/retry.rules', '../../workflows/webhook-delivery/delivery.logic']) {
    const src = await readFile(require.resolve(file), 'utf8');
    for (const line of src.match(/^import .*$/gm) ?? []) assert.match(line, /^import type .* from '(\.\/types|\.\.\/\.\.\/domain\/webhooks\/types|\.\/contract)';$/, file);
  }
});
