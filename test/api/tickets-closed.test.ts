// Every call on a closed ticket answers in a defined way once its lifecycle workflow has
// ended: reads 200, changes 409/422 from the stored row, DELETE 204 (the spec: a ticket
// is deleted permanently, closed or not), then 404 for everything.
import assert from 'node:assert/strict';
import { ticketWorkflowId, ENDED_TICKET_WORKFLOW_TYPE } from '../../workflows/ticket/contract';
import { startApi, type TestApi } from '../support/api';
import { assertError, createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token: t.token, body });
const count = async (table: string, id: string) =>
  (await api.deps.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ticket_id = $1`, [id])).rows[0].n as number;

/** A ticket with a message, closed, whose lifecycle workflow has completed. */
async function closedTicket() {
  const ticket = await createTicket(api, t);
  assert.equal((await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'hi' })).status, 201);
  const closed = await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'closed' });
  assert.equal(closed.status, 200, JSON.stringify(closed.body));
  assert.equal(closed.body.status, 'closed');
  // wait for the workflow to end, so each call below meets an ended workflow, not a finishing one
  assert.equal(await api.deps.temporal.workflow.getHandle(ticketWorkflowId(ticket.id)).result(), 'closed');
  return ticket;
}

describe('a closed ticket whose workflow has ended', () => {
  it('is readable and listed; every change is 409, a status change 422', async () => {
    const ticket = await closedTicket();
    const got = await call('GET', `/v1/tickets/${ticket.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'closed');
    const listed = await call('GET', `/v1/tickets?workspaceId=${t.workspace.id}&status=closed`);
    assert.ok(listed.body.data.some((x: { id: string }) => x.id === ticket.id));
    assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { priority: 'low' }), 409, 'ticket_already_closed');
    assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'closed' }), 409, 'ticket_already_closed');
    assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'open' }), 422, 'invalid_status_transition');
    assertError(await call('POST', `/v1/tickets/${ticket.id}/assign`, { agentId: t.agent.id }), 409, 'ticket_already_closed');
    assertError(await call('POST', `/v1/tickets/${ticket.id}/resolve`, {}), 409, 'ticket_already_closed');
    assertError(await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'x' }), 409, 'ticket_already_closed');
    assertError(
      await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'agent', authorId: t.agent.id, body: 'x' }),
      409,
      'ticket_already_closed',
    );
  });

  it('DELETE is 204 and removes it with its messages and audit events, through a workflow run', async () => {
    const ticket = await closedTicket();
    assert.ok((await count('ticket_audit', ticket.id)) > 0);
    const res = await call('DELETE', `/v1/tickets/${ticket.id}`);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assertError(await call('GET', `/v1/tickets/${ticket.id}`), 404, 'ticket_not_found');
    assert.equal(await count('messages', ticket.id), 0);
    assert.equal(await count('ticket_audit', ticket.id), 0);
    // the deletion is a step of `ticket/<id>`: a short run that applied it and ended
    const handle = api.deps.temporal.workflow.getHandle(ticketWorkflowId(ticket.id));
    assert.equal(await handle.result(), 'deleted');
    assert.equal((await handle.describe()).type, ENDED_TICKET_WORKFLOW_TYPE);
    // and afterwards the ticket is gone for every call
    assertError(await call('DELETE', `/v1/tickets/${ticket.id}`), 404, 'ticket_not_found');
    assertError(await call('PATCH', `/v1/tickets/${ticket.id}`, { priority: 'low' }), 404, 'ticket_not_found');
    assertError(await call('POST', `/v1/tickets/${ticket.id}/messages`, { authorType: 'player', body: 'x' }), 404, 'ticket_not_found');
  });

  it('two concurrent DELETEs both succeed or find it gone, never 5xx', async () => {
    const ticket = await closedTicket();
    const answers = await Promise.all([call('DELETE', `/v1/tickets/${ticket.id}`), call('DELETE', `/v1/tickets/${ticket.id}`)]);
    for (const a of answers) assert.ok(a.status === 204 || a.status === 404, `${a.status} ${JSON.stringify(a.body)}`);
    assert.ok(answers.some((a) => a.status === 204));
    assertError(await call('GET', `/v1/tickets/${ticket.id}`), 404, 'ticket_not_found');
  });
});
