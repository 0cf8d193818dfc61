// A triage must not be reported done without being stored. Triage of a ticket is retried
// until its result is in the row: an outage longer than the old five attempts (~15 s) no longer
// leaves the ticket untriaged for good. (The other half of the fix: the application's
// sessions commit with synchronous_commit = on, so a triage the activity reported done
// survives a crash of PostgreSQL; db/data-source.ts.)
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import type { Triager } from '../../domain/tickets/types';
import { createTriager } from '../../activities/triage/triager';
import { connectDb, type Db } from '../../db/db';
import { findTicket } from '../../db/repositories/tickets';
import { loadConfig } from '../../lib/config';
import { ticketWorkflowId } from '../../workflows/ticket/contract';
import { ticketWorker, timeSkippingEnv } from '../support/temporal';
import { newTicketInput } from '../support/ticket-suite';

const TASK_QUEUE = 'ticket-triage-retry-test';
let env: TestWorkflowEnvironment;
let worker: Worker;
let db: Db;
let running: Promise<void>;
let failuresLeft = 0;
let calls = 0;

// the real classifier behind a dependency that is down for its first calls
const real = createTriager({});
const flaky: Triager = {
  async triage(input) {
    calls++;
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    }
    return real.triage(input);
  },
};

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 5);
  env = await timeSkippingEnv();
  worker = await ticketWorker({ connection: env.nativeConnection, taskQueue: TASK_QUEUE, db, triager: flaky });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await db?.close();
});

test('a ticket stored by the API is triaged even after ten failed attempts', async () => {
  const { input } = await newTicketInput(db, env, { title: 'Charged twice for gems', body: 'My card was billed two times for the same pack.', stored: true });
  await db.transaction((m) => storeNewTicket(m, input)); // what the API's create transaction does
  failuresLeft = 10;
  const handle = await env.client.workflow.start('ticketWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: ticketWorkflowId(input.ticketId),
    args: [input],
  });
  // time-skipping: the retries' backoff passes at once; wait for triage to land
  for (let i = 0; i < 300 && !(await findTicket(db, input.ticketId))!.aiTriaged; i++) {
    await env.sleep('1 minute');
  }
  const row = (await findTicket(db, input.ticketId))!;
  assert.equal(row.aiTriaged, true);
  assert.equal(calls, 11);
  await handle.terminate('test done');
});
