// End to end: a platform ticket's first-response SLA breaches in its workflow (the
// `platform` worker that scripts/test.sh runs, on the real Temporal server), the event goes
// through the outbox and the dispatcher to a platform endpoint (the `webhooks` worker), and
// a receiver on loopback gets `ticket.sla_breached` in the platform envelope, signed
// (X-Service-Signature, verified with lib/webhooks/signing.ts). The ticket is
// written as the API writes it (row, event, workflow-start entry in one transaction) with a
// creation time 1 h − 3 s ago, so its critical 1 h deadline falls 3 s into the test.
import assert from 'node:assert/strict';
import { enqueueWorkflowStart } from '../../db/repositories/workflow-starts';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { createPlatformTicket } from '../../domain/platform/create-ticket';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { masterKey } from '../../lib/crypto/master-key';
import { newId } from '../../lib/ids';
import { platformTicketWorkflowStart } from '../../workflows/platform-ticket/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { platformTenant, startPlatformApi } from '../support/platform';
import { startReceiver, verifies } from '../support/webhook-receiver';

let api: TestApi;
let t: PlatformTenant;
let secret = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** the verified deliveries of `ticketId`'s breaches (the platform envelope names its event `type`) */
const breachesOf = (ticketId: string) => receiver.accepted.filter((x) => x.envelope?.type === 'ticket.sla_breached' && x.envelope.data?.ticket_id === ticketId);

beforeAll(async () => {
  api = await startPlatformApi();
  t = await platformTenant(api);
  // no secret given to the receiver: it accepts every request and this test verifies the
  // platform's X-Service-Signature itself (the Standard Webhooks headers beside it are the
  // webhooks part's, tested there)
  receiver = await startReceiver();
  const registered = await registerEndpoint(
    api.deps.db,
    { secretKey: masterKey(api.deps.config), urlPolicy: { allowLoopback: true } },
    { api: 'platform', environment: 'test', workspaceId: t.workspaceId, url: receiver.url, events: ['ticket.sla_breached'], description: 'SLA e2e', active: true, maxPerWorkspace: 20 },
  );
  secret = registered.secret;
});
afterAll(async () => {
  await receiver?.stop();
  await api?.stop();
});

test('a breached first response reaches a platform endpoint as ticket.sla_breached, signed', async () => {
  const ticketId = newId('tkt');
  const createdAt = new Date(Date.now() - 3600_000 + 3000);
  const caller = { organizationId: t.organizationId, workspaceId: t.workspaceId, userId: t.adminUserId, role: 'admin' as const, isOrgAdmin: true };
  await api.deps.db.transaction(async (m) => {
    await createPlatformTicket(m, caller, {
      ticketId, environment: 'test', channelId: t.channelIds.email, subject: 'Nobody answers', body: '', contactEmail: 'p@example.com',
      priority: 'critical', assigneeId: null, tags: [], now: createdAt,
    });
    await enqueueWorkflowStart(m, platformTicketWorkflowStart({ ticketId, workspaceId: t.workspaceId, assigneeId: null }));
  });

  const d = await eventually(() => breachesOf(ticketId)[0], {
    timeoutMs: 30_000,
    what: () => `the breach at the receiver (requests so far: ${receiver.requests.length})`,
  });
  assert.ok(verifies(secret, d.raw, d.headers), 'X-Service-Signature and the Standard Webhooks signature verify');
  assert.deepEqual(Object.keys(d.envelope).sort(), ['created_at', 'data', 'id', 'type', 'workspace_id']);
  assert.equal(d.envelope.type, 'ticket.sla_breached');
  assert.equal(d.envelope.workspace_id, t.workspaceId);
  const due = new Date(createdAt.getTime() + 3600_000).toISOString();
  assert.deepEqual(
    { ...d.envelope.data, ticket: undefined },
    { ticket_id: ticketId, policy: 'first_response', priority: 'critical', due_at: due, breached_at: due, ticket: undefined },
  );
  assert.equal(d.envelope.data.ticket.id, ticketId);
  assert.equal(d.envelope.data.ticket.status, 'open');
  // once: the resolution policy is 8 h away, and the first response never breaches twice
  assert.equal(breachesOf(ticketId).length, 1);
});
