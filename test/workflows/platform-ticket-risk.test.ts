// Risk signals in the platform ticket workflow (workflows/platform-ticket/risk.ts) on the
// time-skipping server with the real activities over the test database: the created ticket is
// assessed once at the start of its first run, each published reply after its step; the
// assessment does not hold the ticket's changes (a patch and a reply complete while it is
// stuck), a failed attempt is retried by the activity policy and the signal recorded once; the
// run ends only once its assessments have settled. Started with `riskInTask`, the same
// assessments run as local activities inside the workflow tasks: no activity task.
import assert from 'node:assert/strict';
import { createPlatformRiskActivities } from '../../activities/platform/risk';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import {
  patchTicketUpdate,
  replyTicketUpdate,
  type PlatformRiskActivities,
} from '../../workflows/platform-ticket/contract';
import { eventually } from '../support/eventually';
import { platformTicketSuite } from '../support/platform-ticket-suite';

/** The real activity behind a gate the test opens, failing its first call for `failFirst` tickets. */
let gate: Promise<void> = Promise.resolve();
const failFirst = new Set<string>();
const calls: Array<{ ticketId: string; replyId: string | null }> = [];

const suite = platformTicketSuite('platform-ticket-risk-test', {
  tenantName: 'Risk workflow',
  activities: (db): PlatformRiskActivities => {
    const real = createPlatformRiskActivities({ db });
    return {
      async assessPlatformRisk(input) {
        calls.push({ ticketId: input.ticketId, replyId: input.replyId ?? null });
        await gate;
        if (failFirst.delete(input.ticketId)) throw new Error('model unavailable (test)');
        return real.assessPlatformRisk(input);
      },
    };
  },
});
const ticket = (subject: string, body: string, riskInTask?: boolean) => suite.ticket({ subject, body, riskInTask });

const signals = async (ticketId: string) =>
  (await suite.db.query(`SELECT data FROM events WHERE subject_id = $1 AND type = 'risk_signal.triggered' ORDER BY occurred_at, id`, [ticketId])).rows.map(
    (r) => [r.data.source, r.data.signal, r.data.reply_id] as const,
  );

test('a risk-worded ticket: its signal once, from its first run; a benign reply adds none, a risk-worded reply its own; the text stays out of the history', async () => {
  const { ticketId, handle } = await ticket('Stolen card', 'Someone used my stolen credit card to buy subscriptions on your site. My bank confirmed it is fraud.');
  await eventually(async () => (await signals(ticketId)).length === 1, { what: 'the ticket signal' });
  assert.deepEqual(await signals(ticketId), [['ticket', 'fraud', null]]);

  const benign = await draftPlatformReply(suite.db, ticketId, suite.tenant.agentUserId, 'Thanks, we have blocked the card and cancelled those subscriptions.');
  await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: benign }] });
  const risky = await draftPlatformReply(suite.db, ticketId, suite.tenant.agentUserId, 'I will find where you live and hurt you, you worthless idiots.');
  await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: risky }] });
  await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
  assert.equal(await handle.result(), 'closed');
  assert.deepEqual(await signals(ticketId), [['ticket', 'fraud', null], ['reply', 'abuse', risky]]);
  assert.deepEqual(calls.filter((c) => c.ticketId === ticketId), [{ ticketId, replyId: null }, { ticketId, replyId: benign }, { ticketId, replyId: risky }]);

  const history = JSON.stringify((await handle.fetchHistory()).events);
  assert.ok(history.includes('platform-ticket-risk'), 'the patch marker');
  assert.ok(!history.includes('stolen credit card') && !history.includes('worthless'), 'no text in the history');
});

test('a stuck assessment holds no change, a failed attempt is retried and records once, and the run ends only after it', async () => {
  let open!: () => void;
  gate = new Promise((resolve) => (open = resolve));
  const t = await ticket('My account was hacked', 'Someone hacked my account and changed my password and email.');
  failFirst.add(t.ticketId);
  await eventually(() => calls.some((c) => c.ticketId === t.ticketId), { what: 'the assessment started' });
  // the ticket's changes go through while the assessment waits
  const replyId = await draftPlatformReply(suite.db, t.ticketId, suite.tenant.agentUserId, 'We are looking into it.');
  assert.equal((await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] })).version, 2);
  assert.equal((await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] })).status, 'closed');
  assert.equal((await t.handle.describe()).status.name, 'RUNNING', 'the closed run waits for its assessments');
  open();
  assert.equal(await t.handle.result(), 'closed');
  assert.deepEqual(await signals(t.ticketId), [['ticket', 'account_compromise', null]]);
  assert.equal(calls.filter((c) => c.ticketId === t.ticketId && c.replyId === null).length, 2, 'the failed attempt and its retry');
});

test('riskInTask: the same signals from local activities (a failed attempt retried), no activity task in the history', async () => {
  const t = await ticket('Chargeback', 'I will file a chargeback with my bank and my lawyer will sue you unless you refund me now.', true);
  failFirst.add(t.ticketId);
  await eventually(async () => (await signals(t.ticketId)).length === 1, { what: 'the ticket signal' });
  const risky = await draftPlatformReply(suite.db, t.ticketId, suite.tenant.agentUserId, 'I will find where you live and hurt you, you worthless idiots.');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: risky }] });
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
  assert.equal(await t.handle.result(), 'closed');
  assert.deepEqual(await signals(t.ticketId), [['ticket', 'legal_threat', null], ['reply', 'abuse', risky]]);
  assert.equal(calls.filter((c) => c.ticketId === t.ticketId && c.replyId === null).length, 2, 'the failed attempt and its retry');

  const events = (await t.handle.fetchHistory()).events ?? [];
  assert.equal(events.filter((e) => e.activityTaskScheduledEventAttributes).length, 0, 'no activity task');
  const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  assert.ok(markers.length >= 4, `the assessments' and steps' local-activity markers (${markers.length})`);
});
