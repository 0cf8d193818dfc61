// Platform automations end to end, with the real platform and webhook workers: a rule made
// with POST /automations changes a matching ticket made with POST /tickets (priority, tag,
// assignee), exactly one `automation.fired` is recorded and delivered, signed, to a
// platform endpoint on loopback; a ticket that does not match is left alone.
import assert from 'node:assert/strict';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { masterKey } from '../../lib/crypto/master-key';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { platformTenant, startPlatformApi } from '../support/platform';
import { startReceiver, type Receiver, verifies } from '../support/webhook-receiver';

let api: TestApi;
let receiver: Receiver;
let secret = '';
beforeAll(async () => {
  api = await startPlatformApi();
  // the receiver takes every request; the test checks X-Service-Signature itself (the
  // platform row's signature headers are the webhooks part's to extend)
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.stop();
  await api?.stop();
});

test('a rule applies to a matching ticket and fires once, delivered to a platform endpoint', async () => {
  const t = await platformTenant(api);
  const registered = await registerEndpoint(
    api.deps.db,
    { secretKey: masterKey(api.deps.config), urlPolicy: { allowLoopback: true } },
    { api: 'platform', environment: 'test', workspaceId: t.workspaceId, url: receiver.url, events: ['automation.fired'], description: 'automations', active: true, maxPerWorkspace: 10 },
  );
  secret = registered.secret;
  const rule = await api.request('POST', '/platform/v1/automations', {
    token: t.adminToken,
    body: {
      name: 'Refunds to the agent',
      trigger: 'ticket.created',
      conditions: [{ field: 'subject', operator: 'contains', value: 'refund' }, { field: 'channel_id', operator: 'equals', value: t.channelIds.email }],
      actions: [{ type: 'set_priority', value: 'high' }, { type: 'add_tag', value: 'refund' }, { type: 'assign', user_id: t.agentUserId }],
    },
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));

  const create = (subject: string) =>
    api.request('POST', '/platform/v1/tickets', { token: t.adminToken, body: { subject, channel_id: t.channelIds.email, contact_email: 'p@example.com', tags: ['web'] } });
  const matching = await create('Refund for a double charge');
  const other = await create('Cannot log in');
  assert.equal(matching.status, 201);
  assert.equal(matching.body.priority, 'normal', 'the create answers before the workflow runs');

  const changed = await eventually(async () => {
    const got = await api.request('GET', `/platform/v1/tickets/${matching.body.id}`, { token: t.adminToken });
    return got.body.priority === 'high' && got.body;
  }, { what: 'the rule applied' });
  assert.deepEqual(changed.tags, ['web', 'refund']);
  assert.equal(changed.assignee_id, t.agentUserId);

  const events = async (ticketId: string) =>
    (await api.deps.db.query(`SELECT type, api, data FROM events WHERE subject_id = $1 ORDER BY occurred_at, id`, [ticketId])).rows;
  const fired = (await events(matching.body.id)).filter((e) => e.type === 'automation.fired');
  assert.equal(fired.length, 1);
  assert.equal(fired[0].api, 'platform');
  assert.deepEqual(fired[0].data, {
    automation_id: rule.body.id,
    ticket_id: matching.body.id,
    trigger: 'ticket.created',
    actions: [{ type: 'set_priority', value: 'high' }, { type: 'add_tag', value: 'refund' }, { type: 'assign', user_id: t.agentUserId }],
  });

  const delivered = await eventually(() => receiver.accepted.filter((d) => d.envelope?.type === 'automation.fired').length > 0 && receiver.accepted, {
    what: 'automation.fired at the receiver',
  });
  const ours = delivered.filter((d) => d.envelope?.type === 'automation.fired');
  assert.equal(ours.length, 1);
  assert.ok(verifies(secret, ours[0].raw, ours[0].headers), 'X-Service-Signature and the Standard Webhooks signature verify');
  assert.equal(ours[0].envelope.workspace_id, t.workspaceId);
  assert.equal(ours[0].envelope.data.automation_id, rule.body.id);
  assert.equal(ours[0].envelope.data.ticket_id, matching.body.id);

  // the other ticket's workflow ran (a PATCH goes through it) and no rule fired on it
  const patched = await api.request('PATCH', `/platform/v1/tickets/${other.body.id}`, { token: t.adminToken, body: { status: 'pending' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.priority, 'normal');
  assert.deepEqual((await events(other.body.id)).map((e) => e.type), ['ticket.created', 'ticket.updated']);
});
