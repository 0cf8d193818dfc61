// What differs between webhook APIs is data (domain/webhooks/apis.ts): the table's rows,
// the routing of events to endpoints of their own API, the split of a claim into one batch
// per API, and the pause email built from an endpoint and its failed deliveries.
import assert from 'node:assert/strict';
import { agentEmails } from '../../db/repositories/agents';
import { WEBHOOK_API_NAMES, WEBHOOK_APIS, webhookApi, type WebhookApis } from '../../domain/webhooks/apis';
import { envelope } from '../../domain/webhooks/envelope';
import { byApi, subscribersOf } from '../../domain/webhooks/fan-out.rules';
import { pauseEmail } from '../../domain/webhooks/pause-email';
import { PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { checkSchedule } from '../../domain/webhooks/retry.rules';

describe('the webhook API table', () => {
  it('has one row per API name, each under its own name, with a usable schedule', () => {
    assert.deepEqual(Object.keys(WEBHOOK_APIS).sort(), [...WEBHOOK_API_NAMES].sort());
    for (const name of WEBHOOK_API_NAMES) {
      const api = WEBHOOK_APIS[name];
      assert.equal(api.name, name);
      assert.doesNotThrow(() => checkSchedule(api.schedule.delaysMs), name);
      assert.ok(api.signatures.length > 0, `${name} deliveries must be signed`);
    }
  });

  it('ticketing: the spec schedule without a pause, its envelope, both signature schemes, agents with an email as pause recipients', () => {
    const t = webhookApi('ticketing');
    assert.equal(t.schedule, TICKETING_RETRY_SCHEDULE);
    assert.equal(t.schedule.onExhausted, undefined);
    assert.equal(t.envelope, envelope);
    assert.deepEqual([...t.signatures], ['service-signature', 'standard-webhooks']);
    assert.equal(t.pauseRecipients, agentEmails);
  });

  it('platform: its spec schedule with the pause, a snake_case envelope, X-Service-Signature and the Standard Webhooks headers', () => {
    const p = webhookApi('platform');
    assert.equal(p.schedule, PLATFORM_RETRY_SCHEDULE);
    assert.equal(p.schedule.onExhausted, 'pause-endpoint');
    assert.deepEqual([...p.signatures], ['service-signature', 'standard-webhooks']);
    const body = JSON.parse(p.envelope('evt_1', { type: 'ticket.created', workspaceId: 'ws_1', occurredAt: '2026-01-01T00:00:00Z', data: { id: 'tkt_1' } }));
    assert.deepEqual(body, { id: 'evt_1', type: 'ticket.created', workspace_id: 'ws_1', created_at: '2026-01-01T00:00:00.000Z', data: { id: 'tkt_1' } });
  });

  it('a name without a row is a programming error; a table given by the caller is used as is', () => {
    assert.throws(() => webhookApi('nowhere'), /unknown webhook API 'nowhere'/);
    assert.throws(() => webhookApi('toString'), /unknown webhook API/);
    const other = { ...WEBHOOK_APIS.ticketing, name: 'platform' };
    const apis = { ...WEBHOOK_APIS, platform: other } as unknown as WebhookApis;
    assert.equal(webhookApi('platform', apis), other);
  });
});

describe('routing events to endpoints', () => {
  const ep = (id: string, workspaceId: string, api: string, events: string[]) => ({ id, workspaceId, api, events });
  const endpoints = [
    ep('wh_a', 'ws_1', 'ticketing', ['ticket.created', 'ticket.closed']),
    { ...ep('wh_b', 'ws_1', 'platform', ['ticket.created']), environment: 'live' },
    { ...ep('wh_e', 'ws_1', 'platform', ['ticket.created']), environment: 'test' },
    ep('wh_c', 'ws_2', 'ticketing', ['ticket.created']),
    ep('wh_d', 'ws_1', 'ticketing', ['message.created']),
  ];

  it('an event goes to the subscribed endpoints of its workspace and of its API only', () => {
    const ids = (event: { workspaceId: string; type: string; api: string }) => subscribersOf(event, endpoints).map((e) => e.id);
    assert.deepEqual(ids({ workspaceId: 'ws_1', type: 'ticket.created', api: 'ticketing' }), ['wh_a']);
    assert.deepEqual(ids({ workspaceId: 'ws_1', type: 'ticket.created', api: 'platform' }), []); // wh_b is a live endpoint: an event with no environment is none of its
    assert.deepEqual(ids({ workspaceId: 'ws_2', type: 'ticket.created', api: 'ticketing' }), ['wh_c']);
    assert.deepEqual(ids({ workspaceId: 'ws_1', type: 'sla.breached', api: 'ticketing' }), []);
  });

  it("a platform event goes to its environment's endpoints only: live and test data never meet", () => {
    const ids = (environment: string) => subscribersOf({ workspaceId: 'ws_1', type: 'ticket.created', api: 'platform', environment }, endpoints).map((e) => e.id);
    assert.deepEqual(ids('live'), ['wh_b']);
    assert.deepEqual(ids('test'), ['wh_e']);
  });

  it('an endpoint in test mode gets no real event (no row at all, unlike a paused one); off again, it does', () => {
    const event = { workspaceId: 'ws_1', type: 'ticket.created', api: 'ticketing' };
    const testing = { ...ep('wh_t', 'ws_1', 'ticketing', ['ticket.created']), testMode: true };
    const paused = { ...ep('wh_p', 'ws_1', 'ticketing', ['ticket.created']), active: false };
    assert.deepEqual(subscribersOf(event, [...endpoints, testing, paused]).map((e) => e.id), ['wh_a', 'wh_p']);
    assert.deepEqual(subscribersOf(event, [{ ...testing, testMode: false }]).map((e) => e.id), ['wh_t']);
  });

  it('a claim is one batch per API, in the order each API first appears; one API is one batch', () => {
    const e = (id: string, api: string) => ({ id, api });
    assert.deepEqual(byApi([e('1', 'ticketing'), e('2', 'ticketing')]), [[e('1', 'ticketing'), e('2', 'ticketing')]]);
    assert.deepEqual(byApi([e('1', 'platform'), e('2', 'ticketing'), e('3', 'platform')]), [
      [e('1', 'platform'), e('3', 'platform')],
      [e('2', 'ticketing')],
    ]);
    assert.deepEqual(byApi([]), []);
  });
});

describe('the pause email', () => {
  it('goes to every recipient at once, names the endpoint and each failed delivery, and carries the endpoint id header', () => {
    const endpoint = { id: 'wh_1', workspaceId: 'ws_1', url: 'https://hooks.example.com/x', description: 'CRM', api: 'ticketing' as const };
    const failed = [
      { id: 'evt_1', event_type: 'ticket.created', attempt: 5, started_at: new Date('2026-01-01T00:00:00Z'), status_code: 500, error: null },
      { id: 'evt_2', event_type: 'ticket.closed', attempt: 5, started_at: new Date('2026-01-01T00:01:00Z'), status_code: null, error: 'connect ECONNREFUSED' },
    ];
    const m = pauseEmail(endpoint, ['a@studio.test', 'b@studio.test'], failed);
    assert.deepEqual(m.to, ['a@studio.test', 'b@studio.test']);
    assert.equal(m.subject, 'Webhook paused: https://hooks.example.com/x');
    assert.deepEqual(m.headers, { 'X-Webhook-Endpoint-Id': 'wh_1' });
    assert.equal(m.tag, 'webhook-paused');
    assert.match(m.text, /wh_1 \(https:\/\/hooks\.example\.com\/x, "CRM"\) has been paused/);
    assert.match(m.text, /- evt_1 \(ticket\.created\): attempt 5 at 2026-01-01T00:00:00\.000Z: status 500/);
    assert.match(m.text, /- evt_2 \(ticket\.closed\): attempt 5 at 2026-01-01T00:01:00\.000Z: connect ECONNREFUSED/);
  });
});
