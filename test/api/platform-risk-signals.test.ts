// Risk signals end to end over HTTP with the real platform worker (docs/platform.md, "Risk
// signals"): a risk-worded ticket emits exactly one risk_signal.triggered, a benign one none,
// a risk-worded reply one of its own; a platform endpoint on loopback subscribed to it gets
// the signed delivery with the documented data: X-Service-Signature verified, and the
// Standard Webhooks headers too when the platform's deliveries carry them (their API row,
// domain/webhooks/apis.ts, says which schemes; part 2 adds the second).
import assert from 'node:assert/strict';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { masterKey } from '../../lib/crypto/master-key';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { platformTenant, startPlatformApi } from '../support/platform';
import { startReceiver, type Receiver, verifies } from '../support/webhook-receiver';
import { ticketRequests } from './platform-tickets-helpers';

let api: TestApi;
let newTicket: ReturnType<typeof ticketRequests>['newTicket'];
let receiver: Receiver;
let secret = '';
beforeAll(async () => {
  api = await startPlatformApi();
  ({ newTicket } = ticketRequests(api));
  receiver = await startReceiver();
});
afterAll(async () => {
  receiver?.stop();
  await api?.stop();
});

const riskEvents = async (ticketId: string) =>
  (await api.deps.db.query(`SELECT id, api, data FROM events WHERE subject_id = $1 AND type = 'risk_signal.triggered' ORDER BY occurred_at, id`, [ticketId])).rows;

/**
 * How many assessments of the ticket's workflow have completed (its history: results, never
 * the text): local-activity markers when the API started it with `riskInTask` (no LLM endpoint
 * configured, as here), completed activity tasks otherwise (workflows/platform-ticket/risk.ts).
 */
async function assessmentsDone(ticketId: string): Promise<number> {
  const history = await api.deps.temporal.workflow.getHandle(platformTicketWorkflowId(ticketId)).fetchHistory().catch(() => null);
  const events = history?.events ?? [];
  const scheduled = new Set<string>();
  let done = 0;
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s?.activityType?.name === 'assessPlatformRisk') scheduled.add(String(e.eventId));
    const c = e.activityTaskCompletedEventAttributes;
    if (c && scheduled.has(String(c.scheduledEventId))) done++;
    const marker = e.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
    if (data && JSON.parse(Buffer.from(data).toString('utf8')).activity_type === 'assessPlatformRisk') done++;
  }
  return done;
}

test('a risk-worded ticket emits exactly one risk_signal.triggered, delivered signed to a platform endpoint on loopback; a risk-worded reply one more', async () => {
  const t = await platformTenant(api);
  const registered = await registerEndpoint(
    api.deps.db,
    { secretKey: masterKey(api.deps.config), urlPolicy: { allowLoopback: true } },
    { api: 'platform', environment: 'test', workspaceId: t.workspaceId, url: receiver.url, events: ['risk_signal.triggered'], description: 'risk', active: true, maxPerWorkspace: 10 },
  );
  secret = registered.secret;

  const ticket = await newTicket(t, {
    subject: 'Charges I never made',
    body: 'Someone used my stolen credit card to buy subscriptions on your site. My bank confirmed it is fraud.',
  });
  await eventually(async () => (await assessmentsDone(ticket.id)) === 1, { what: 'the ticket assessed', timeoutMs: 30_000 });
  const [event, ...more] = await riskEvents(ticket.id);
  assert.deepEqual(more, []);
  assert.equal(event.api, 'platform');
  assert.equal(event.data.signal, 'fraud');
  assert.deepEqual([event.data.ticket_id, event.data.reply_id, event.data.source], [ticket.id, null, 'ticket']);

  // the signed delivery
  const delivered = await eventually(() => receiver.accepted.find((d) => d.envelope?.type === 'risk_signal.triggered' && d.envelope.data.ticket_id === ticket.id), {
    what: 'the risk_signal.triggered delivery',
    timeoutMs: 30_000,
  });
  assert.ok(verifies(secret, delivered.raw, delivered.headers), 'X-Service-Signature and the Standard Webhooks signature verify');
  assert.ok(!verifies('whsec_not-the-secret', delivered.raw, delivered.headers));
  assert.equal(delivered.envelope.workspace_id, t.workspaceId);
  assert.deepEqual(delivered.envelope.data, event.data);

  // a risk-worded reply (the agent's own text is assessed too)
  const reply = await api.request('PUT', `/platform/v1/tickets/${ticket.id}/reply`, {
    token: t.agentToken,
    body: { body: 'If this is not sorted by Friday my lawyer will sue you and I will file a chargeback with my bank.' },
  });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  await eventually(async () => (await assessmentsDone(ticket.id)) === 2, { what: 'the reply assessed', timeoutMs: 30_000 });
  const events = await riskEvents(ticket.id);
  assert.deepEqual(events.map((e) => [e.data.source, e.data.signal, e.data.reply_id]), [['ticket', 'fraud', null], ['reply', 'legal_threat', reply.body.id]]);
  await eventually(() => receiver.accepted.filter((d) => d.envelope?.type === 'risk_signal.triggered' && d.envelope.data.ticket_id === ticket.id).length === 2, {
    what: "the reply's delivery",
    timeoutMs: 30_000,
  });
});

test('a benign ticket and a benign reply emit none', async () => {
  const t = await platformTenant(api);
  const ticket = await newTicket(t, { subject: 'Crash on start', body: 'The game crashes right after the logo on my PC since the last update.' });
  const reply = await api.request('PUT', `/platform/v1/tickets/${ticket.id}/reply`, { token: t.agentToken, body: { body: 'Thanks, could you send us your logs?' } });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  await eventually(async () => (await assessmentsDone(ticket.id)) === 2, { what: 'the ticket and its reply assessed', timeoutMs: 30_000 });
  assert.deepEqual(await riskEvents(ticket.id), []);
});
