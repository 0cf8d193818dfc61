// End to end: API call → outbox → dispatcher → delivery workflow (the `webhooks` worker
// that scripts/test.sh runs) → a real receiver on loopback that verifies both signatures.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyServiceSignature } from '../../lib/webhooks/signing';
import { startApi, type TestApi } from '../support/api';
import { uniquePlayerId } from '../support/player-helpers';
import { createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { eventually } from '../support/eventually';
import { insertEndpoint, removeEndpoint, setEndpointActive } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

const ALL_EVENTS = ['ticket.created', 'ticket.assigned', 'ticket.resolved', 'ticket.closed', 'message.created', 'player.created', 'sla.breached'];

let api: TestApi;
let t: TenantWithPlayer;
let secret = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let endpointId: string;

beforeAll(async () => {
  api = await startApi();
  // urgent tickets breach their first-response SLA after one minute
  t = await tenantWithPlayer(api, { settings: { sla: { urgent: { firstResponseMinutes: 1, resolutionMinutes: 2 } } } });
  receiver = await startReceiver({ secret: () => secret });
  const ep = await insertEndpoint(api.deps.db, { workspaceId: t.workspace.id, url: receiver.url, events: ALL_EVENTS });
  secret = ep.secret;
  endpointId = ep.id;
});
afterAll(async () => {
  await receiver?.stop();
  await api?.stop();
});

const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token: t.token, body });
const arrived = (event: string, match: (data: any) => boolean, timeoutMs = 20_000) =>
  eventually(async () => receiver.of(event).find((d) => match(d.envelope.data)), { timeoutMs });

/** The first recorded attempt of `endpointId`'s delivery of the ticket's event, once there is one. */
const firstAttempt = (endpointId: string, ticketId: string) =>
  eventually(async () => {
    const { rows } = await api.deps.db.query(
      `SELECT a.status_code, a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = $1 AND d.body LIKE $2`,
      [endpointId, `%${ticketId}%`],
    );
    return rows[0];
  });

function assertEnvelope(d: { id: string; envelope: any; headers: http.IncomingHttpHeaders }, event: string) {
  assert.match(d.envelope.id, /^evt_/);
  assert.equal(d.envelope.id, d.id, 'webhook-id header = envelope id');
  assert.equal(d.envelope.event, event);
  assert.equal(d.envelope.workspaceId, t.workspace.id);
  assert.ok(!Number.isNaN(Date.parse(d.envelope.timestamp)));
  assert.deepEqual(Object.keys(d.envelope).sort(), ['data', 'event', 'id', 'timestamp', 'workspaceId']);
}

test('every event type reaches a verifying receiver after its API call, with the spec data', async () => {
  const slaTicket = await createTicket(api, t, { priority: 'urgent', title: 'Nobody answers' });

  const playerId = uniquePlayerId();
  const player = await call('POST', '/v1/players', { workspaceId: t.workspace.id, playerId, displayName: 'Kim' });
  assert.ok([200, 201].includes(player.status), JSON.stringify(player.body));
  const pc = await arrived('player.created', (d) => d.playerId === playerId);
  assertEnvelope(pc, 'player.created');
  assert.equal(pc.envelope.data.id, player.body.id);
  assert.equal(pc.envelope.data.displayName, 'Kim');

  const ticket = await createTicket(api, t);
  const tc = await arrived('ticket.created', (d) => d.id === ticket.id);
  assertEnvelope(tc, 'ticket.created');
  assert.equal(tc.envelope.data.title, ticket.title);
  assert.equal(tc.envelope.data.playerId, t.player.playerId);
  assert.equal(tc.envelope.data.internalNote, undefined, 'agent-only notes stay out of webhooks');

  assert.equal((await call('POST', `/v1/tickets/${ticket.id}/assign`, { agentId: t.agent.id })).status, 200);
  const ta = await arrived('ticket.assigned', (d) => d.id === ticket.id);
  assert.equal(ta.envelope.data.assigneeId, t.agent.id);

  const msg = await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'Still broken' });
  assert.equal(msg.status, 201, JSON.stringify(msg.body));
  const mc = await arrived('message.created', (d) => d.id === msg.body.id);
  assertEnvelope(mc, 'message.created');
  assert.deepEqual(mc.envelope.data, msg.body);

  assert.equal((await call('POST', `/v1/tickets/${ticket.id}/resolve`, { resolutionNote: 'fixed' })).status, 200);
  const tr = await arrived('ticket.resolved', (d) => d.id === ticket.id);
  assert.equal(tr.envelope.data.status, 'resolved');

  assert.equal((await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'closed' })).status, 200);
  const tcl = await arrived('ticket.closed', (d) => d.id === ticket.id);
  assert.equal(tcl.envelope.data.status, 'closed');

  // the urgent ticket's one-minute first-response deadline, on the real clock
  const sla = await arrived('sla.breached', (d) => d.ticketId === slaTicket.id, 120_000);
  assertEnvelope(sla, 'sla.breached');
  assert.deepEqual(Object.keys(sla.envelope.data).sort(), ['breachedAt', 'policy', 'ticketId']);
  assert.ok(Date.parse(sla.envelope.data.breachedAt) - Date.parse(slaTicket.createdAt) >= 60_000);

  // every event once, each delivery recorded as succeeded on attempt 1
  assert.deepEqual(receiver.rejected, []);
  const ids = receiver.accepted.map((d) => d.id);
  assert.equal(new Set(ids).size, ids.length, 'no delivery arrived twice');
  const { rows } = await api.deps.db.query(
    `SELECT d.status, d.attempts, a.status_code FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.id = ANY($1::text[])`,
    [ids],
  );
  assert.equal(rows.length, ids.length);
  for (const r of rows) assert.deepEqual([r.status, r.attempts, r.status_code], ['succeeded', 1, 200]);
});

test('a tampered body fails both signature checks and the receiver rejects it', async () => {
  const ticket = await createTicket(api, t);
  const d = await arrived('ticket.created', (x) => x.id === ticket.id);
  const tampered = d.raw.replace(ticket.id, `${ticket.id}x`);
  assert.notEqual(tampered, d.raw);
  assert.equal(verifyServiceSignature(secret, tampered, d.headers['x-service-signature'] as string), false);
  assert.throws(() => new Webhook(secret).verify(tampered, d.headers as Record<string, string>));
  const headers = Object.fromEntries(['content-type', 'x-service-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(d.headers[h])]));
  const replay = await fetch(receiver.url, { method: 'POST', headers, body: tampered });
  assert.equal(replay.status, 401);
  // the genuine bytes with the same headers still verify
  assert.equal((await fetch(receiver.url, { method: 'POST', headers, body: d.raw })).status, 200);
});

test('a paused endpoint gets nothing, and resuming does not replay what it skipped', async () => {
  const quiet = await startReceiver({ secret: () => pausedSecret });
  const paused = await insertEndpoint(api.deps.db, { workspaceId: t.workspace.id, url: quiet.url, events: ['ticket.created'], active: false });
  const pausedSecret = paused.secret;
  try {
    const first = await createTicket(api, t);
    await arrived('ticket.created', (d) => d.id === first.id); // the active endpoint has it: dispatch is done
    const skipped = await api.deps.db.query(
      `SELECT d.status, count(a.*)::int AS attempts FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.endpoint_id = $1 GROUP BY d.id`,
      [paused.id],
    );
    assert.deepEqual(skipped.rows, [{ status: 'skipped', attempts: 0 }]);

    await setEndpointActive(api.deps.db, paused.id, true);
    const second = await createTicket(api, t);
    await eventually(async () => quiet.accepted.length >= 1);
    await arrived('ticket.created', (d) => d.id === second.id);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(quiet.accepted.map((d) => d.envelope.data.id), [second.id]);
  } finally {
    await quiet.stop();
  }
});

test('a redirect is never followed: the attempt fails with the 3xx and the target sees nothing', async () => {
  const target = await startReceiver({ secret: () => secret });
  const redirector = http.createServer((_req, res) => res.writeHead(302, { location: target.url }).end());
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
  const ep = await insertEndpoint(api.deps.db, { workspaceId: t.workspace.id, url, events: ['ticket.created'] });
  try {
    const ticket = await createTicket(api, t);
    const attempt = await firstAttempt(ep.id, ticket.id);
    assert.equal(attempt.status_code, 302);
    assert.match(attempt.error, /302/);
    assert.equal(target.accepted.length + target.rejected.length, 0);
  } finally {
    await removeEndpoint(api.deps.db, ep.id);
    redirector.closeAllConnections();
    await new Promise((r) => redirector.close(r));
    await target.stop();
  }
});

test('an endpoint whose address became private is refused at connect time', async () => {
  // registration refuses these; a row that names one stands in for DNS that changed later
  const ep = await insertEndpoint(api.deps.db, { workspaceId: t.workspace.id, url: 'https://10.0.0.1:8443/hook', events: ['ticket.created'] });
  try {
    const ticket = await createTicket(api, t);
    const attempt = await firstAttempt(ep.id, ticket.id);
    assert.equal(attempt.status_code, null);
    assert.match(attempt.error, /refusing to connect .*private/);
  } finally {
    await removeEndpoint(api.deps.db, ep.id);
  }
});
