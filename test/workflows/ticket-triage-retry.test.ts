// A triage must not be reported done without being stored. Triage of a ticket is retried
// until its result is in the row: an outage longer than the old five attempts (~15 s) no longer
// leaves the ticket untriaged for good. (The other half of the fix: the application's
// sessions commit with synchronous_commit = on, so a triage the activity reported done
// survives a crash of PostgreSQL; db/data-source.ts.)
import assert from 'node:assert/strict';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import type { Triager } from '../../domain/tickets/types';
import { createTriager } from '../../activities/triage/triager';
import { findTicket } from '../../db/repositories/tickets';
import { ticketWorkflowId } from '../../workflows/ticket/contract';
import { newTicketInput, ticketSuite } from '../support/ticket-suite';

const TASK_QUEUE = 'ticket-triage-retry-test';
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

const suite = ticketSuite(TASK_QUEUE, { triager: flaky });

test('a ticket stored by the API is triaged even after ten failed attempts', async () => {
  const { input } = await newTicketInput(suite.db, suite.env, { title: 'Charged twice for gems', body: 'My card was billed two times for the same pack.', stored: true });
  await suite.db.transaction((m) => storeNewTicket(m, input)); // what the API's create transaction does
  failuresLeft = 10;
  const handle = await suite.env.client.workflow.start('ticketWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: ticketWorkflowId(input.ticketId),
    args: [input],
  });
  // time-skipping: the retries' backoff passes at once; wait for triage to land
  for (let i = 0; i < 300 && !(await findTicket(suite.db, input.ticketId))!.aiTriaged; i++) {
    await suite.env.sleep('1 minute');
  }
  const row = (await findTicket(suite.db, input.ticketId))!;
  assert.equal(row.aiTriaged, true);
  assert.equal(calls, 11);
  await handle.terminate('test done');
});
