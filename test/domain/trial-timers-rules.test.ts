// The trial request's rules of time (domain/onboarding/trial-timers.rules.ts), without a
// server: which timer is due next, when the reminder goes out, what the end and an
// extension leave.
import assert from 'node:assert/strict';
import {
  afterExpiry,
  afterExtension,
  DAY_MS,
  KEEP_AFTER_END_MS,
  nextDue,
  reminderAt,
  SETUP_TOKEN_TTL_MS,
  tokenExpiryAfter,
  TRIAL_REMINDER_BEFORE_MS,
  trialEndAfter,
  type TrialTimes,
} from '../../domain/onboarding/trial-timers.rules';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const approved = (days: number, more: Partial<TrialTimes> = {}): TrialTimes => ({
  trialEndsAt: trialEndAfter(T0, days),
  endSetAt: T0,
  remindedFor: null,
  overAt: null,
  openToken: null,
  ...more,
});

describe('trial timers', () => {
  it('a token lives 7 days, the reminder goes 3 days before the end', () => {
    assert.equal(SETUP_TOKEN_TTL_MS, 7 * DAY_MS);
    assert.equal(tokenExpiryAfter(T0), T0 + 7 * DAY_MS);
    assert.equal(TRIAL_REMINDER_BEFORE_MS, 3 * DAY_MS);
    assert.equal(reminderAt(approved(14)), T0 + 11 * DAY_MS);
  });

  it('a trial of 3 days or less gets no reminder; none twice for the same end', () => {
    assert.equal(reminderAt(approved(3)), null);
    assert.equal(reminderAt(approved(14, { remindedFor: T0 + 14 * DAY_MS })), null);
  });

  it('the earliest timer is due first; on a tie the token is', () => {
    const token = { tokenId: 't1', expiresAt: T0 + 11 * DAY_MS };
    assert.deepEqual(nextDue(approved(14, { openToken: token })), { kind: 'token', at: T0 + 11 * DAY_MS, tokenId: 't1' });
    assert.deepEqual(nextDue(approved(14, { remindedFor: T0 + 14 * DAY_MS })), { kind: 'end', at: T0 + 14 * DAY_MS });
    assert.equal(nextDue({ ...approved(14), trialEndsAt: null }), null);
  });

  it('after the end: retired KEEP_AFTER_END_MS later, once no token is open', () => {
    const over = approved(14, { overAt: T0 + 14 * DAY_MS });
    assert.deepEqual(nextDue(over), { kind: 'retire', at: T0 + 14 * DAY_MS + KEEP_AFTER_END_MS });
    const token = { tokenId: 't2', expiresAt: T0 + 20 * DAY_MS };
    assert.deepEqual(nextDue({ ...over, openToken: token }), { kind: 'token', at: token.expiresAt, tokenId: 't2' });
  });

  it('the end: over when it expired or its stored end is not later; a later stored end is waited for', () => {
    const now = T0 + 14 * DAY_MS;
    assert.deepEqual(afterExpiry({ expired: true, trialEndsAt: new Date(now).toISOString() }, now), { overAt: now });
    assert.deepEqual(afterExpiry({ expired: false, trialEndsAt: new Date(now).toISOString() }, now), { overAt: now });
    const later = now + 5 * DAY_MS;
    assert.deepEqual(afterExpiry({ expired: false, trialEndsAt: new Date(later).toISOString() }, now), { trialEndsAt: later, endSetAt: now });
  });

  it('an extension only moves the end later and starts the trial again', () => {
    const s = approved(14, { overAt: T0 + 14 * DAY_MS });
    const now = T0 + 15 * DAY_MS;
    assert.deepEqual(afterExtension(s, new Date(T0 + 20 * DAY_MS).toISOString(), now), { trialEndsAt: T0 + 20 * DAY_MS, endSetAt: now, overAt: null });
    assert.deepEqual(afterExtension(s, new Date(T0 + 10 * DAY_MS).toISOString(), now), { trialEndsAt: T0 + 14 * DAY_MS, endSetAt: now, overAt: null });
  });
});
