// A ticket's workflow history carries its body once (the start input), however many
// steps it goes through: activity results, update replies and continue-as-new input
// hold ids, step numbers and statuses (docs/tickets.md, "History size").
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { assignUpdate, createdUpdate, messageUpdate, patchUpdate, resolveUpdate, ticketWorkflowId } from '../../workflows/ticket/contract';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { ticketWorker, timeSkippingEnv } from '../support/temporal';
import { newTicketInput } from '../support/ticket-suite';

let env: TestWorkflowEnvironment;
let db: Db;
beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
  env = await timeSkippingEnv();
});
afterAll(async () => {
  await env?.teardown();
  await db?.close();
});

/** How many payloads of the history contain `needle` (payload data is base64 in the JSON form). */
function payloadsContaining(historyJson: string, needle: string): number {
  let n = 0;
  JSON.parse(historyJson, (key, value) => {
    if (key === 'data' && typeof value === 'string' && Buffer.from(value, 'base64').toString('utf8').includes(needle)) n++;
    return value;
  });
  return n;
}

it('a lifecycle with a 100 k-character body carries the body once', async () => {
  const taskQueue = `history-size-${newId('req')}`;
  const worker = await ticketWorker({ connection: env.nativeConnection, taskQueue, db });
  const marker = `marker-${newId('req')}`;
  const body = `${marker} ${'x'.repeat(100_000 - marker.length - 1)}`;
  const { input, agent } = await newTicketInput(db, env, { title: 'A very long report', body });
  const actor = { keyId: 'key_size_test' };
  const ticketId = input.ticketId;
  const json = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(ticketWorkflow, { taskQueue, workflowId: ticketWorkflowId(ticketId), args: [input] });
    assert.deepEqual(await handle.executeUpdate(createdUpdate), { ticketId, version: 1 });
    await handle.executeUpdate(assignUpdate, { args: [{ agentId: agent.id }, actor] });
    const reply = await handle.executeUpdate(messageUpdate, {
      args: [{ messageId: newId('msg'), authorType: 'agent', authorId: agent.id, body: 'Looking' }, actor],
    });
    assert.deepEqual(reply, { ticketId, version: 3, status: 'in_progress' });
    await handle.executeUpdate(patchUpdate, { args: [{ priority: 'high' }, actor] });
    await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor] });
    await env.sleep('72h'); // auto-close ends the run
    assert.equal(await handle.result(), 'closed');
    return historyToJSON(await handle.fetchHistory());
  });
  assert.equal(payloadsContaining(json, marker), 1, 'the body is in the start input only');
  // before replies became small this history was ~18 copies of the body (> 2.4 MB)
  assert.ok(Buffer.byteLength(json) < 200_000, `history is ${Buffer.byteLength(json)} bytes`);
}, 120_000);
