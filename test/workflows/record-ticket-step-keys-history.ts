// Records histories/ticket-step-keys.json, the ticket run after a lost workflow task
// (docs/tickets.md, "Step keys"), so replay.test.ts keeps the `taken` path replaying:
// change A (an assign, Update `upd-a`) is stored through the domain command as step 2
// before its Update arrives, as a lost task would have left it; the first-response SLA
// deadline then asks for step 2 (taken: it re-checks, still due, and is stored as 3), a
// resolve (`upd-b`) is step 4, A asks again and is answered as stored (step 2), and a
// close (`upd-c`) ends the run. On the time-skipping server with the real activities.
// Run after a deliberate change of workflows/ticket that the recorded history cannot
// replay (read docs/workflows.md first; keep the old file under another name while runs
// of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-ticket-step-keys-history.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { connectDb } from '../../db/db';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import { applyTicketChange } from '../../domain/tickets/apply-change';
import { loadConfig } from '../../lib/config';
import { assignUpdate, patchUpdate, resolveUpdate, ticketWorkflowId } from '../../workflows/ticket/contract';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { ticketWorker, timeSkippingEnv } from '../support/temporal';
import { newTicketInput } from '../support/ticket-suite';

async function main() {
  const db = await connectDb(loadConfig().databaseUrl, 2);
  const env = await timeSkippingEnv();
  const taskQueue = 'record-ticket-step-keys';
  const worker = await ticketWorker({ connection: env.nativeConnection, taskQueue, db });
  const history = await worker.runUntil(async () => {
    const { input, agent } = await newTicketInput(db, env, { title: 'Double charged', body: 'The shop took the payment twice', stored: true });
    const actor = { keyId: 'key_recorder' };
    await db.transaction((m) => storeNewTicket(m, input));
    const handle = await env.client.workflow.start(ticketWorkflow, { taskQueue, workflowId: ticketWorkflowId(input.ticketId), args: [input] });
    const assign = { agentId: agent.id };
    const at = new Date(await env.currentTimeMs()).toISOString();
    await applyTicketChange(db, { ticketId: input.ticketId, version: 2, at, change: { kind: 'assign', ...assign }, actor, key: 'update:upd-a' });
    await env.sleep('9h'); // past the first-response deadline of a medium ticket (8 h)
    console.log('B', await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor], updateId: 'upd-b' }));
    console.log('A', await handle.executeUpdate(assignUpdate, { args: [assign, actor], updateId: 'upd-a' }));
    console.log('C', await handle.executeUpdate(patchUpdate, { args: [{ status: 'closed' }, actor], updateId: 'upd-c' }));
    console.log('result', await handle.result());
    const steps = await db.query('SELECT version, step_key FROM ticket_steps WHERE ticket_id = $1 ORDER BY version', [input.ticketId]);
    console.log(steps.rows);
    return handle.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'ticket-step-keys.json'), historyToJSON(history));
  console.log(`recorded ${history.events?.length} events`);
  await env.teardown();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
