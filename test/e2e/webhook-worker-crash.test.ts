// Fault test: `kill -9` the webhooks worker while deliveries are in flight, start it again,
// and every event still reaches a receiver that answers 200; the only repeats are attempts
// whose outcome the dead worker never reported, and each carries the same id and bytes.
//
// Isolation. The suite's own `webhooks` worker (scripts/test.sh) runs the outbox dispatcher,
// which claims EVERY undispatched event and starts its workflow on the shared `webhooks`
// queue, where that worker, not ours, would deliver it; and we cannot SIGKILL that worker
// (we do not own it and do not know its pid). So this test bypasses the outbox: it writes
// the delivery rows itself (no `events` rows, so no dispatcher ever sees them), exactly as
// claimEvents would (one endpoint, envelope() bodies, status pending), and starts the
// production `webhookEventWorkflow` itself, with the dispatcher's workflow ids, on a task
// queue of its own. Only its own worker process polls that queue: the production workflows
// and activities with the options of workers/main.ts (test/support/webhook-worker-main.ts),
// in a separate OS process that can really be killed. The dispatcher is not under test
// here: its crash safety (claim/dispatch columns, REJECT_DUPLICATE) is another test's job.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { envelope } from '../../activities/webhooks/fan-out';
import { verifyServiceSignature } from '../../activities/webhooks/signing';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { WEBHOOK_EVENT_WORKFLOW_TYPE, webhookEventWorkflowId, type WebhookEventInput } from '../../workflows/webhook-delivery/contract';
import { startApi, type TestApi } from '../support/api';
import { createTenant } from '../support/factories';
import { insertEndpoint } from '../support/webhook-receiver';
import { startWebhookWorker, type WorkerProcess } from '../support/worker-process';

const EVENTS = 40;
/** the receiver answers each request after this many ms, so many attempts are in flight */
const DELAY_MS = { min: 300, max: 900 };
/** workflows start this far apart, so at the kill some are done, some in flight, some not begun */
const START_EVERY_MS = 60;
/** kill once this many deliveries have been answered */
const KILL_AFTER_ANSWERED = 8;
/** after a worker dies its started workflow tasks time out (10 s) before another worker gets them */
const RECOVERY_TIMEOUT_MS = 90_000;

const QUEUE = `webhooks-crash-${process.pid}-${Date.now().toString(36)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Request {
  id: string;
  raw: string;
  envelopeId: unknown;
  verified: boolean;
  receivedAt: number;
  answeredAt?: number;
}

/**
 * A receiver on 127.0.0.1 that verifies `x-service-signature` (and the Standard Webhooks
 * headers), records every request, and answers 200 after a random delay. `inFlight` holds
 * the requests it has read but not answered yet.
 */
async function startSlowReceiver(secret: () => string) {
  const requests: Request[] = [];
  const inFlight = new Set<Request>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let verified = verifyServiceSignature(secret(), raw, req.headers['x-service-signature'] as string);
      try {
        new Webhook(secret()).verify(raw, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      let envelopeId: unknown;
      try {
        envelopeId = JSON.parse(raw).id;
      } catch {
        /* recorded as is */
      }
      const r: Request = { id: String(req.headers['webhook-id']), raw, envelopeId, verified, receivedAt: Date.now() };
      requests.push(r);
      if (!verified) return res.writeHead(401).end();
      inFlight.add(r);
      setTimeout(() => {
        inFlight.delete(r);
        r.answeredAt = Date.now();
        res.writeHead(200).end(); // to a dead peer after the kill: nobody reads it
      }, DELAY_MS.min + Math.random() * (DELAY_MS.max - DELAY_MS.min));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    inFlight,
    answered: () => requests.filter((r) => r.answeredAt).length,
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

let api: TestApi;
let receiver: Awaited<ReturnType<typeof startSlowReceiver>>;
let connection: Connection;
let client: Client;
let secret = '';
const workers: WorkerProcess[] = [];
const handles: WorkflowHandle[] = [];

before(async () => {
  api = await startApi();
  receiver = await startSlowReceiver(() => secret);
  const config = loadConfig();
  connection = await Connection.connect({ address: config.temporalAddress });
  client = new Client({ connection, namespace: config.temporalNamespace });
});

after(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  // a failed run leaves workflows waiting for a retry: nobody polls the queue, end them
  await Promise.all(handles.map((h) => h.terminate('webhook-worker-crash test cleanup').catch(() => undefined)));
  await connection?.close();
  await receiver?.stop();
  await api?.stop();
});

test('kill -9 of the webhooks worker mid-delivery: every event arrives, a repeat carries the same id', { timeout: 150_000 }, async (t) => {
  const { workspace } = await createTenant(api.deps.db);
  const endpoint = await insertEndpoint(api.deps.db, { workspaceId: workspace.id, url: receiver.url, events: ['ticket.created'] });
  secret = endpoint.secret;

  // the rows claimEvents would write for EVENTS events and one subscribed endpoint
  const deliveries = Array.from({ length: EVENTS }, (_, n) => {
    const deliveryId = newId('evt');
    const eventId = newId('evt');
    const body = envelope(deliveryId, {
      type: 'ticket.created',
      workspaceId: workspace.id,
      occurredAt: new Date(),
      data: { id: `tkt_crash_${n}`, title: `Crash test ${n}` },
    });
    return { deliveryId, eventId, body };
  });
  await api.deps.db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, status)
     SELECT d.id, $2, d.event_id, 'ticket.created', $3, d.body, 'pending'
       FROM unnest($1::text[], $4::text[], $5::text[]) AS d(id, event_id, body)`,
    [deliveries.map((d) => d.deliveryId), endpoint.id, workspace.id, deliveries.map((d) => d.eventId), deliveries.map((d) => d.body)],
  );
  const bodyOf = new Map(deliveries.map((d) => [d.deliveryId, d.body]));

  const first = await startWebhookWorker(QUEUE);
  workers.push(first);

  // Staggered starts, running on while we kill: the server keeps the later ones queued.
  const starting = (async () => {
    for (const d of deliveries) {
      const input: WebhookEventInput = { eventId: d.eventId, deliveryIds: [d.deliveryId] };
      handles.push(
        await client.workflow.start(WEBHOOK_EVENT_WORKFLOW_TYPE, { taskQueue: QUEUE, workflowId: webhookEventWorkflowId(d.eventId), args: [input] }),
      );
      await sleep(START_EVERY_MS);
    }
  })();

  // some answered, some in flight: kill -9
  const waitDeadline = Date.now() + 30_000;
  while (!(receiver.answered() >= KILL_AFTER_ANSWERED && receiver.inFlight.size > 0)) {
    assert.ok(Date.now() < waitDeadline, `no deliveries in flight within 30 s:\n${first.output()}`);
    await sleep(5);
  }
  first.kill9();
  const killedAt = Date.now();
  const inFlightAtKill = new Set([...receiver.inFlight].map((r) => r.id));
  const answeredAtKill = receiver.answered();
  assert.equal((await first.exited).signal, 'SIGKILL');
  await starting;

  // No worker polls QUEUE now, so what the server says is the state the kill left:
  // a workflow still open has not reported its attempt, whatever the receiver did.
  const descriptions = await Promise.all(handles.map((h) => h.describe()));
  const openAtKill = new Set(deliveries.filter((_, i) => descriptions[i].status.name === 'RUNNING').map((d) => d.deliveryId));
  // everything received up to now came from the dead worker (some bytes may land after the signal)
  await sleep(500);
  const fromFirst = new Set(receiver.requests.map((r) => r.id));

  const second = await startWebhookWorker(QUEUE);
  workers.push(second);
  const restartedAt = Date.now();

  // every event delivered, every workflow done, bounded
  const results = await Promise.race([
    Promise.all(handles.map((h) => h.result())),
    sleep(RECOVERY_TIMEOUT_MS).then(() => {
      const got = new Set(receiver.requests.map((r) => r.id));
      const missing = deliveries.filter((d) => !got.has(d.deliveryId)).length;
      throw new Error(`not recovered ${RECOVERY_TIMEOUT_MS} ms after the restart (${missing} never arrived):\n${second.output()}`);
    }),
  ]);
  const recoveredAt = Date.now();
  assert.deepEqual(results, deliveries.map(() => ['succeeded']));

  // Every request was genuine and carried its delivery's stored bytes under its own id.
  assert.deepEqual(receiver.requests.filter((r) => !r.verified), [], 'every request verifies');
  for (const r of receiver.requests) {
    assert.equal(r.envelopeId, r.id, 'webhook-id header = envelope id');
    assert.equal(r.raw, bodyOf.get(r.id), `request ${r.id} is the stored body, byte for byte`);
  }
  const byId = new Map<string, Request[]>();
  for (const r of receiver.requests) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  // every event reached the receiver, and it answered 200 to the worker that reported it
  assert.deepEqual([...byId.keys()].sort(), deliveries.map((d) => d.deliveryId).sort());
  for (const [id, rs] of byId) assert.ok(rs.at(-1)!.answeredAt, `${id}: its last request was answered 200`);

  // Repeats: at most one per delivery (one kill), each an attempt the dead worker had sent
  // but never reported (its workflow was still open at the kill); every attempt still
  // unanswered at the kill is among them. Repeated bytes are identical (checked above).
  const repeated = new Set([...byId].filter(([, rs]) => rs.length > 1).map(([id]) => id));
  for (const [id, rs] of byId) assert.ok(rs.length <= 2, `${id} arrived ${rs.length} times`);
  for (const id of repeated) {
    assert.ok(fromFirst.has(id) && openAtKill.has(id), `${id} repeated but was not in flight at the kill`);
    const [a, b] = byId.get(id)!;
    assert.equal(a.raw, b.raw);
  }
  for (const id of inFlightAtKill) assert.ok(repeated.has(id), `${id}, unanswered at the kill, is sent again`);
  const unreported = [...fromFirst].filter((id) => openAtKill.has(id)).length;
  assert.ok(repeated.size <= unreported);

  // The database agrees: all succeeded, on attempt 1 (a repeat is the same attempt redone).
  const { rows } = await api.deps.db.query(
    `SELECT d.id, d.status, d.attempts, array_agg(a.attempt ORDER BY a.attempt) AS numbers, array_agg(a.status_code ORDER BY a.attempt) AS codes
       FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.id = ANY($1::text[]) GROUP BY d.id`,
    [deliveries.map((d) => d.deliveryId)],
  );
  assert.equal(rows.length, EVENTS);
  for (const r of rows) assert.deepEqual([r.status, r.attempts, r.numbers, r.codes], ['succeeded', 1, [1], [200]], r.id);

  t.diagnostic(
    `killed with ${answeredAtKill} answered, ${inFlightAtKill.size} unanswered at the receiver, ` +
      `${fromFirst.size} received from the first worker, ${openAtKill.size} workflows open (${unreported} of them already received); ` +
      `${repeated.size} repeated; all ${EVENTS} done ${recoveredAt - killedAt} ms after the kill (${recoveredAt - restartedAt} ms after the restart)`,
  );
});
