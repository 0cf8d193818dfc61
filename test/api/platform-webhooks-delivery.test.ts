// Platform webhooks end to end, with the real platform and webhooks workers beside the
// suite: a receiver on loopback registered through POST /platform/v1/webhooks gets
// ticket.created, .updated, .resolved and .closed from the platform tickets API, each
// verified with both signature schemes; a secret rotation signs with both secrets for its
// 24 h and with the new one only after; a redelivery keeps the evt_ id.
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyServiceSignature } from '../../lib/webhooks/signing';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { platformTenant, startPlatformApi } from '../support/platform';
import { startReceiver, type Delivered, type Receiver } from '../support/webhook-receiver';
import { ticketRequests } from './platform-tickets-helpers';

let api: TestApi;
let receiver: Receiver;
let t: PlatformTenant;
let hook: { id: string; secret: string };
let secret = ''; // what the receiver verifies with (the newest secret)
let requests: ReturnType<typeof ticketRequests>;

beforeAll(async () => {
  api = await startPlatformApi();
  requests = ticketRequests(api);
  receiver = await startReceiver({ secret: () => secret, answer: () => 204 });
  t = await platformTenant(api);
  const res = await api.request('POST', '/platform/v1/webhooks', {
    token: t.adminToken,
    body: { url: receiver.url, events: ['ticket.created', 'ticket.updated', 'ticket.resolved', 'ticket.closed'] },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  hook = res.body;
  secret = hook.secret;
});
afterAll(async () => {
  await receiver?.stop();
  await api?.stop();
});

/** The accepted deliveries of a ticket, by type, once `types` have all arrived. */
const arrived = (ticketId: string, types: string[]) =>
  eventually(
    () => {
      const mine = receiver.accepted.filter((d) => d.envelope?.data?.id === ticketId);
      const got = mine.map((d) => d.envelope.type).sort();
      return JSON.stringify(got) === JSON.stringify([...types].sort()) && mine;
    },
    { timeoutMs: 30_000, what: () => `${types.join(', ')} for ${ticketId}; got ${receiver.requests.map((d) => d.envelope?.type).join(', ')}` },
  );

const verifiesStandard = (key: string, d: Delivered) => {
  try {
    new Webhook(key).verify(d.raw, d.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

const patch = async (id: string, body: unknown) => {
  const res = await requests.patch(t.adminToken, id, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
};

test('ticket.created, .updated, .resolved and .closed arrive in the snake_case envelope, with X-Service-Signature and the Standard Webhooks headers', async () => {
  const ticket = await requests.newTicket(t, { subject: 'Lost my items' });
  await patch(ticket.id, { priority: 'high' });
  await patch(ticket.id, { status: 'resolved' });
  await patch(ticket.id, { status: 'closed' });
  const got = await arrived(ticket.id, ['ticket.created', 'ticket.updated', 'ticket.updated', 'ticket.updated', 'ticket.resolved', 'ticket.closed']);
  assert.equal(receiver.rejected.length, 0, 'every delivery verified');
  for (const d of got) {
    assert.equal(d.verified, true);
    assert.ok(verifyServiceSignature(hook.secret, d.raw, d.headers['x-service-signature'] as string), 'X-Service-Signature');
    assert.ok(verifiesStandard(hook.secret, d), 'Standard Webhooks');
    assert.equal(d.headers['x-service-signature-previous'], undefined, 'never rotated: one secret');
    assert.equal(String(d.headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(Object.keys(d.envelope), ['id', 'type', 'workspace_id', 'created_at', 'data']);
    assert.equal(d.envelope.id, d.headers['webhook-id']);
    assert.equal(d.envelope.workspace_id, t.workspaceId);
    assert.equal(d.envelope.data.subject, 'Lost my items');
  }
  const closed = got.find((d) => d.envelope.type === 'ticket.closed')!;
  assert.equal(closed.envelope.data.status, 'closed');
  assert.equal(got.find((d) => d.envelope.type === 'ticket.resolved')!.envelope.data.status, 'resolved');

  // the delivery log shows them, each with its attempt; a redelivery keeps the evt_ id
  const log = await api.request('GET', `/platform/v1/webhooks/${hook.id}/deliveries?per_page=100`, { token: t.adminToken });
  assert.equal(log.status, 200);
  const ofTicket = log.body.data.filter((x: any) => x.payload.data.id === ticket.id);
  assert.equal(ofTicket.length, 6);
  assert.ok(ofTicket.every((x: any) => x.status === 'succeeded' && x.attempt_log.length === 1 && x.attempt_log[0].status_code === 204));
  const again = await api.request('POST', `/platform/v1/webhooks/${hook.id}/deliveries/${closed.id}/redeliver`, { token: t.adminToken });
  assert.equal(again.status, 202, JSON.stringify(again.body));
  assert.equal(again.body.id, closed.id);
  await eventually(() => receiver.received(closed.id).length === 2, { timeoutMs: 30_000, what: 'the redelivery' });
  assert.equal(receiver.received(closed.id)[1].raw, closed.raw, 'the same body, the same id');
});

test('rotation: for 24 h both secrets sign (webhook-signature lists v1,<new> v1,<old>; X-Service-Signature-Previous), then only the new one', async () => {
  const old = secret;
  const res = await api.request('POST', `/platform/v1/webhooks/${hook.id}/rotate-secret`, { token: t.adminToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const fresh: string = res.body.secret;
  secret = fresh;

  const during = await requests.newTicket(t, { subject: 'During the overlap' });
  const [d] = await arrived(during.id, ['ticket.created']);
  assert.ok(verifyServiceSignature(fresh, d.raw, d.headers['x-service-signature'] as string), 'X-Service-Signature: the new secret');
  assert.ok(verifyServiceSignature(old, d.raw, d.headers['x-service-signature-previous'] as string), 'X-Service-Signature-Previous: the old one');
  const sigs = String(d.headers['webhook-signature']).split(' ');
  assert.equal(sigs.length, 2);
  assert.ok(sigs.every((s) => s.startsWith('v1,')));
  assert.ok(verifiesStandard(fresh, d), 'a receiver with the new secret verifies');
  assert.ok(verifiesStandard(old, d), 'a receiver still on the old secret verifies too');
  assert.equal(verifiesStandard(fresh, { ...d, headers: { ...d.headers, 'webhook-signature': sigs[1] } }), false, 'the second signature is the old secret\'s');

  // the 24 h have passed (the worker runs beside the suite on the system clock, so the
  // window is moved instead; the exact boundary is the activity test's, with its clock)
  await api.deps.db.query("UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1", [hook.id]);
  const after = await requests.newTicket(t, { subject: 'After the overlap' });
  const [a] = await arrived(after.id, ['ticket.created']);
  assert.equal(a.headers['x-service-signature-previous'], undefined);
  assert.equal(String(a.headers['webhook-signature']).split(' ').length, 1);
  assert.ok(verifiesStandard(fresh, a));
  assert.equal(verifiesStandard(old, a), false, 'the old secret no longer verifies');
  assert.equal(verifyServiceSignature(old, a.raw, a.headers['x-service-signature'] as string), false);
});

test('PATCH {active: false} pauses; PATCH {active: true} resumes without replaying what was skipped meanwhile', async () => {
  const set = async (active: boolean) => {
    const res = await api.request('PATCH', `/platform/v1/webhooks/${hook.id}`, { token: t.adminToken, body: { active } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  assert.equal((await set(false)).paused_reason, 'manual');
  const whilePaused = await requests.newTicket(t, { subject: 'While paused' });
  const logged = async (ticketId: string) => {
    const log = await api.request('GET', `/platform/v1/webhooks/${hook.id}/deliveries?per_page=100`, { token: t.adminToken });
    return log.body.data.find((x: any) => x.payload.data.id === ticketId);
  };
  const skipped = await eventually(async () => (await logged(whilePaused.id))?.status === 'skipped' && logged(whilePaused.id), { timeoutMs: 30_000, what: 'the skipped delivery' });
  assert.equal(skipped.attempt_log.length, 0);
  const resumed = await set(true);
  assert.deepEqual([resumed.active, resumed.paused_reason, resumed.paused_at], [true, null, null]);
  const afterResume = await requests.newTicket(t, { subject: 'After resuming' });
  await arrived(afterResume.id, ['ticket.created']);
  assert.equal(receiver.requests.filter((d) => d.envelope?.data?.id === whilePaused.id).length, 0, 'nothing of the paused time is sent');
  assert.equal((await logged(whilePaused.id)).status, 'skipped');
});
