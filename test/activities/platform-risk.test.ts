// The risk activity (activities/platform/risk.ts, domain/platform/record-risk-signal.ts) over
// the test database: a risk-worded ticket records one risk_signal.triggered however often the
// activity is retried, with the documented data; a benign ticket none; a published reply is
// assessed on its own text; a vanished ticket or another ticket's reply records nothing; a
// classifier error is thrown as retryable.
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createPlatformRiskActivities } from '../../activities/platform/risk';
import { RISK_THRESHOLD } from '../../activities/triage/risk';
import { connectDb, type Db } from '../../db/db';
import { applyPlatformTicketChange } from '../../domain/platform/apply-ticket-change';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { createPlatformTicket } from '../../domain/platform/create-ticket';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';

let db: Db;
let tenant: PlatformTenant;
const risk = () => createPlatformRiskActivities({ db });

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
  tenant = await createPlatformTenant(db, { name: `Risk ${process.pid}` });
});
afterAll(() => db?.close());

async function newTicket(subject: string, body: string): Promise<string> {
  const ticketId = newId('tkt');
  const caller = { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, userId: tenant.adminUserId, role: 'admin' as const, isOrgAdmin: true };
  await db.transaction((m) =>
    createPlatformTicket(m, caller, {
      ticketId, environment: 'test', channelId: tenant.channelIds.email, subject, body, contactEmail: 'p@example.com',
      priority: 'normal', assigneeId: null, tags: [], now: new Date(),
    }),
  );
  return ticketId;
}

const riskEvents = async (ticketId: string) =>
  (await db.query(`SELECT type, api, workspace_id, subject_id, data FROM events WHERE subject_id = $1 AND type = 'risk_signal.triggered' ORDER BY occurred_at`, [ticketId])).rows;

test('a risk-worded ticket: one risk_signal.triggered (api platform) however often the activity runs, with ids, signal, confidence and model', async () => {
  const ticketId = await newTicket('My account was hacked', 'Someone hacked my account, changed my password and my email, and I cannot log in anymore.');
  const first = await risk().assessPlatformRisk({ ticketId });
  const retried = await risk().assessPlatformRisk({ ticketId });
  assert.deepEqual(first, { ticketId, replyId: null, signal: 'account_compromise' });
  assert.deepEqual(retried, first);
  const events = await riskEvents(ticketId);
  assert.equal(events.length, 1);
  const [e] = events;
  assert.equal(e.api, 'platform');
  assert.equal(e.workspace_id, tenant.workspaceId);
  assert.deepEqual(Object.keys(e.data).sort(), ['confidence', 'model', 'reply_id', 'signal', 'source', 'ticket_id']);
  assert.equal(e.data.ticket_id, ticketId);
  assert.equal(e.data.reply_id, null);
  assert.equal(e.data.signal, 'account_compromise');
  assert.equal(e.data.source, 'ticket');
  assert.equal(e.data.model, 'local-risk-bayes-v1');
  assert.ok(e.data.confidence >= RISK_THRESHOLD && e.data.confidence <= 1, String(e.data.confidence));
  assert.equal(JSON.stringify(e.data).includes('password'), false, 'the text is not in the event');
});

test('a benign ticket records nothing', async () => {
  const ticketId = await newTicket('Crash on start', 'The game crashes right after the logo on my PC since the last update.');
  assert.deepEqual(await risk().assessPlatformRisk({ ticketId }), { ticketId, replyId: null, signal: null });
  assert.deepEqual(await riskEvents(ticketId), []);
});

test("a published reply is assessed on its own text: one event with its id (source 'reply'); a draft, another ticket's reply or a vanished ticket record nothing", async () => {
  const ticketId = await newTicket('Order question', 'Where is my order?');
  const replyId = await draftPlatformReply(db, ticketId, tenant.agentUserId, 'If you do not refund me by Friday I will file a chargeback with my bank and my lawyer will sue you.');
  // still a draft: not published, not assessed
  assert.equal((await risk().assessPlatformRisk({ ticketId, replyId })).signal, null);
  await applyPlatformTicketChange(db, { ticketId, version: 2, at: new Date().toISOString(), change: { kind: 'reply', replyId } });
  assert.deepEqual(await risk().assessPlatformRisk({ ticketId, replyId }), { ticketId, replyId, signal: 'legal_threat' });
  await risk().assessPlatformRisk({ ticketId, replyId });
  const events = await riskEvents(ticketId);
  assert.equal(events.length, 1);
  assert.deepEqual([events[0].data.reply_id, events[0].data.source, events[0].data.signal], [replyId, 'reply', 'legal_threat']);

  const other = await newTicket('Hello', 'Just a question about my plan.');
  assert.equal((await risk().assessPlatformRisk({ ticketId: other, replyId })).signal, null);
  assert.equal((await risk().assessPlatformRisk({ ticketId: newId('tkt') })).signal, null);
  assert.deepEqual(await riskEvents(other), []);
});

test('a classifier error is thrown as it is (retried by the activity policy), not as a refusal', async () => {
  const ticketId = await newTicket('My account was hacked', 'Someone hacked my account.');
  const failing = createPlatformRiskActivities({ db, assessor: { assess: () => { throw new Error('model unavailable'); } } });
  await assert.rejects(failing.assessPlatformRisk({ ticketId }), (err: unknown) => !(err instanceof ApplicationFailure) && (err as Error).message === 'model unavailable');
  assert.deepEqual(await riskEvents(ticketId), []);
});
