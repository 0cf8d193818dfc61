// Shared plumbing of the kill -9 fault tests of the webhooks worker
// (test/e2e/webhook-worker-crash.test.ts): receivers that verify and answer late, and a
// run on a task queue of its own whose worker process the test starts, kills and starts
// again.
//
// Isolation. The suite's own `webhooks` worker (scripts/test.sh) runs the outbox dispatcher,
// which claims EVERY undispatched event and starts its workflow on the shared `webhooks`
// queue, where that worker, not ours, would deliver it; and we cannot SIGKILL that worker
// (we do not own it and do not know its pid). So these tests bypass the outbox: they write
// the delivery rows themselves (insertTicketCreatedDeliveries in webhook-factories.ts: no
// `events` rows, so no dispatcher ever sees them; one delivery per subscribed endpoint,
// envelope() bodies, status pending, as claimEvents writes them), and start the production `webhookBatchWorkflow` themselves, with the
// dispatcher's workflow ids, on a task queue of their own. Only their own worker process
// polls that queue: the production workflows and activities with the options of
// workers/main.ts (test/support/queue-worker-main.ts), in a separate OS process that can
// really be killed. The dispatcher is not under test here: its crash safety
// (claim/dispatch columns, REJECT_DUPLICATE) is another test's job.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { WEBHOOK_BATCH_WORKFLOW_TYPE, webhookBatchWorkflowId, type BatchTally, type WebhookBatchInput } from '../../workflows/webhook-delivery/contract';
import { startApi, type TestApi } from './api';
import { insertEndpoint, type TicketCreatedEvent } from './webhook-factories';
import { startReceiver, type Receiver } from './webhook-receiver';
import { startQueueWorker, type WorkerProcess } from './worker-process';
import { within } from './within';

/** Every request verifies and carries its delivery's stored bytes under its own id. */
export function assertGenuine(receiver: Receiver, bodyOf: Map<string, string>) {
  assert.deepEqual(receiver.requests.filter((r) => !r.verified), [], 'every request verifies');
  for (const r of receiver.requests) {
    assert.equal(r.envelope?.id, r.id, 'webhook-id header = envelope id');
    assert.equal(r.raw, bodyOf.get(r.id), `request ${r.id} is the stored body, byte for byte`);
  }
}

/** The database agrees: every delivery succeeded on attempt 1, with one attempt row (a repeat is the same attempt redone). */
export async function assertSucceededFirstTime(db: Db, deliveryIds: string[]) {
  const { rows } = await db.query(
    `SELECT d.id, d.status, d.attempts, array_agg(a.attempt ORDER BY a.attempt) AS numbers, array_agg(a.status_code ORDER BY a.attempt) AS codes
       FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.id = ANY($1::text[]) GROUP BY d.id`,
    [deliveryIds],
  );
  assert.equal(rows.length, deliveryIds.length);
  for (const r of rows) assert.deepEqual([r.status, r.attempts, r.numbers, r.codes], ['succeeded', 1, [1], [200]], r.id);
}

/**
 * The API (for its database), a Temporal client, and the runs of one test file: call at
 * the top level of the file (it registers the file's before/after hooks).
 */
export function useCrashHarness() {
  let api: TestApi;
  let connection: Connection;
  let client: Client;
  /** runs of the current test, cleaned up when it ends */
  const runs: CrashRun[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) await run.cleanup();
  });
  beforeAll(async () => {
    api = await startApi();
    const config = loadConfig();
    connection = await Connection.connect({ address: config.temporalAddress });
    client = new Client({ connection, namespace: config.temporalNamespace });
  });
  afterAll(async () => {
    await connection?.close();
    await api?.stop();
  });
  return {
    get db() {
      return api.deps.db;
    },
    /** a run of the current test on a queue of its own, cleaned up when the test ends */
    run(name: string) {
      const run = new CrashRun(client, api.deps.db, `webhooks-crash-${name}-${process.pid}-${Date.now().toString(36)}`);
      runs.push(run);
      return run;
    },
  };
}

/** One test's task queue, the worker processes polling it, its receivers and its workflows. */
export class CrashRun {
  readonly workers: WorkerProcess[] = [];
  readonly handles: WorkflowHandle[] = [];
  private readonly receivers: Receiver[] = [];

  constructor(
    private readonly client: Client,
    private readonly db: Db,
    readonly queue: string,
  ) {}

  /** A receiver answering after `delayMs()` ms, and an endpoint of `workspaceId` subscribed to ticket.created that points at it. */
  async receiverEndpoint(workspaceId: string, delayMs: () => number) {
    let secret = '';
    const receiver = await startReceiver({ secret: () => secret, answerAfterMs: delayMs });
    this.receivers.push(receiver);
    const endpoint = await insertEndpoint(this.db, { workspaceId, url: receiver.url, events: ['ticket.created'] });
    secret = endpoint.secret;
    return { endpointId: endpoint.id, receiver };
  }

  /** a worker process polling this run's queue, once it polls */
  async startWorker() {
    const worker = await startQueueWorker('webhooks', this.queue);
    this.workers.push(worker);
    return worker;
  }

  /** Starts each event's workflow, `everyMs` apart, with the dispatcher's workflow id; resolves once all are started. */
  async startWorkflows(events: TicketCreatedEvent[], everyMs: number) {
    for (const e of events) {
      const input: WebhookBatchInput = { batchId: e.eventId, deliveryIds: e.deliveries.map((d) => d.deliveryId), schedule: TICKETING_RETRY_SCHEDULE };
      this.handles.push(
        await this.client.workflow.start(WEBHOOK_BATCH_WORKFLOW_TYPE, { taskQueue: this.queue, workflowId: webhookBatchWorkflowId(e.eventId), args: [input] }),
      );
      await sleep(everyMs);
    }
  }

  /** kill -9, and resolves once the process is gone */
  async kill9(worker: WorkerProcess) {
    worker.kill9();
    assert.equal((await worker.exited).signal, 'SIGKILL');
  }

  /** which of the workflows are still open (no worker polls the queue after a kill: this is the state it left) */
  async openWorkflows() {
    const descriptions = await Promise.all(this.handles.map((h) => h.describe()));
    return descriptions.map((d) => d.status.name === 'RUNNING');
  }

  /** every workflow's result, or a failure naming `missing()` after `timeoutMs` */
  async results(worker: WorkerProcess, timeoutMs: number, missing: () => string): Promise<BatchTally[]> {
    return within(
      Promise.all(this.handles.map((h) => h.result() as Promise<BatchTally>)),
      timeoutMs,
      () => `not recovered ${timeoutMs} ms after the restart (${missing()}):\n${worker.output()}`,
    );
  }

  async cleanup() {
    await Promise.all(this.workers.map((w) => w.stop()));
    // a failed run leaves workflows waiting for a retry: nobody polls the queue, end them
    await Promise.all(this.handles.map((h) => h.terminate('webhook-worker-crash test cleanup').catch(() => undefined)));
    await Promise.all(this.receivers.map((r) => r.stop()));
  }
}
