// Platform tickets changed through their workflow over HTTP with the real platform worker:
// the transition table (409 once closed), reply, soft delete (manager and above) and restore.
import assert from 'node:assert/strict';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';
import { ticketRequests } from './platform-tickets-helpers';

let api: TestApi;
let member: ReturnType<typeof ticketRequests>['member'];
let newTicket: ReturnType<typeof ticketRequests>['newTicket'];
let patch: ReturnType<typeof ticketRequests>['patch'];
beforeAll(async () => {
  api = await startPlatformApi();
  ({ member, newTicket, patch } = ticketRequests(api));
});
afterAll(() => api?.stop());

describe('PATCH, reply, delete and restore through the workflow', () => {
  it('follows the transition table: open → pending → resolved → open (reopen) → closed; closed takes nothing (409)', async () => {
    const t = await platformTenant(api);
    const { id } = await newTicket(t);
    const step = async (body: unknown) => {
      const res = await patch(t.agentToken, id, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    assert.equal((await step({ status: 'pending', priority: 'high', tags: ['vip'] })).status, 'pending');
    const resolved = await step({ status: 'resolved' });
    assert.ok(resolved.resolved_at);
    assert.deepEqual(resolved.tags, ['vip']);
    assert.equal(resolved.priority, 'high');
    const reopened = await step({ status: 'open', assignee_id: t.agentUserId });
    assert.equal(reopened.resolved_at, null);
    assert.equal(reopened.assignee_id, t.agentUserId);
    assert.equal((await step({ assignee_id: null })).assignee_id, null);
    const closed = await step({ status: 'closed' });
    assert.ok(closed.closed_at);

    for (const body of [{ status: 'open' }, { priority: 'low' }, { tags: [] }]) assertPlatformError(await patch(t.agentToken, id, body), 409, 'conflict');
    assertPlatformError(await api.request('PUT', `/platform/v1/tickets/${id}/reply`, { token: t.agentToken, body: { body: 'late' } }), 409, 'conflict');
    const { rows } = await api.deps.db.query(`SELECT type FROM events WHERE subject_id = $1 ORDER BY occurred_at, type`, [id]);
    const types = rows.map((r) => r.type);
    assert.equal(types.filter((x) => x === 'ticket.updated').length, 5);
    assert.equal(types.filter((x) => x === 'ticket.resolved').length, 1);
    assert.equal(types.filter((x) => x === 'ticket.closed').length, 1);
    const { rows: v } = await api.deps.db.query(`SELECT version FROM platform_tickets WHERE id = $1`, [id]);
    assert.equal(v[0].version, 6);
  });

  it('refuses a transition the table does not have (resolved → pending: 409) and an empty PATCH (400)', async () => {
    const t = await platformTenant(api);
    const { id } = await newTicket(t);
    assert.equal((await patch(t.agentToken, id, { status: 'resolved' })).status, 200);
    const res = await patch(t.agentToken, id, { status: 'pending' });
    assertPlatformError(res, 409, 'conflict');
    assertPlatformError(await patch(t.agentToken, id, {}), 400, 'validation_failed');
  });

  it('a reply: 201 with the reply by the token user, the status unchanged; an empty body is a 400', async () => {
    const t = await platformTenant(api);
    const { id } = await newTicket(t);
    assert.equal((await patch(t.agentToken, id, { status: 'pending' })).status, 200);
    const res = await api.request('PUT', `/platform/v1/tickets/${id}/reply`, { token: t.agentToken, body: { body: 'We are on it.' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.id, /^rpl_/);
    assert.equal(res.body.ticket_id, id);
    assert.equal(res.body.author_id, t.agentUserId);
    assert.equal(res.body.body, 'We are on it.');
    assert.equal((await api.request('GET', `/platform/v1/tickets/${id}`, { token: t.agentToken })).body.status, 'pending');
    assertPlatformError(await api.request('PUT', `/platform/v1/tickets/${id}/reply`, { token: t.agentToken, body: { body: '' } }), 400, 'validation_failed');
    // the reply's text is not in the workflow's history
    const history = await api.deps.temporal.workflow.getHandle(platformTicketWorkflowId(id)).fetchHistory();
    assert.ok(!JSON.stringify(history).includes(Buffer.from('We are on it.').toString('base64')));
    assert.ok(!JSON.stringify(history).includes('We are on it.'));
  });

  it('delete: an agent is refused (403), a manager soft-deletes (hidden everywhere), restores, and deletes a closed ticket', async () => {
    const t = await platformTenant(api);
    const manager = await member(t, 'manager');
    const { id } = await newTicket(t);
    assertPlatformError(await api.request('DELETE', `/platform/v1/tickets/${id}`, { token: t.agentToken }), 403, 'forbidden');
    assert.equal((await api.request('DELETE', `/platform/v1/tickets/${id}`, { token: manager.token })).status, 204);
    assertPlatformError(await api.request('GET', `/platform/v1/tickets/${id}`, { token: manager.token }), 404, 'not_found');
    assertPlatformError(await patch(manager.token, id, { priority: 'low' }), 404, 'not_found');
    assertPlatformError(await api.request('DELETE', `/platform/v1/tickets/${id}`, { token: manager.token }), 404, 'not_found');
    assert.deepEqual((await api.request('GET', '/platform/v1/tickets', { token: manager.token })).body.data, []);
    const { rows } = await api.deps.db.query(`SELECT deleted_at, purge_at FROM platform_tickets WHERE id = $1`, [id]);
    assert.equal(rows[0].purge_at.getTime() - rows[0].deleted_at.getTime(), 30 * 86_400_000);
    const { rows: ev } = await api.deps.db.query(`SELECT data FROM events WHERE dedupe_key = $1`, [`platform-ticket:${id}:2:ticket.updated`]);
    assert.equal(ev[0].data.deleted_at, rows[0].deleted_at.toISOString(), 'the delete step announces itself');
    assert.equal(ev[0].data.purge_at, rows[0].purge_at.toISOString());

    assertPlatformError(await api.request('POST', `/platform/v1/tickets/${id}/restore`, { token: t.agentToken }), 403, 'forbidden');
    const restored = await api.request('POST', `/platform/v1/tickets/${id}/restore`, { token: manager.token });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.status, 'open');
    assertPlatformError(await api.request('POST', `/platform/v1/tickets/${id}/restore`, { token: manager.token }), 409, 'conflict');

    // closed: the run ended; DELETE starts a new one under the same id with the row's facts
    assert.equal((await patch(manager.token, id, { status: 'closed' })).status, 200);
    const handle = api.deps.temporal.workflow.getHandle(platformTicketWorkflowId(id));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', { what: 'the closed ticket’s run ends' });
    assert.equal((await api.request('DELETE', `/platform/v1/tickets/${id}`, { token: t.adminToken })).status, 204);
    assertPlatformError(await api.request('GET', `/platform/v1/tickets/${id}`, { token: t.adminToken }), 404, 'not_found');
    assert.equal((await handle.describe()).status.name, 'RUNNING', 'the new run keeps the 30-day timer');
    const back = await api.request('POST', `/platform/v1/tickets/${id}/restore`, { token: t.adminToken });
    assert.equal(back.status, 200);
    assert.equal(back.body.status, 'closed');
  });
});
