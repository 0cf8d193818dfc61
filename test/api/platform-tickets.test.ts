// Platform tickets over HTTP with the real platform worker: create (201 without waiting on
// Temporal, its event and its workflow), read, list with every filter and the page bounds,
// change through the workflow (the transition table, 409 once closed), reply, soft delete
// (manager and above) and restore; live/test isolation, two tenants' ids in the path, the
// body and the filters, and an Idempotency-Key replay.
import assert from 'node:assert/strict';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import type { PlatformRole } from '../../domain/platform/types';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { newId } from '../../lib/ids';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

/** A user of `t`'s organisation with `role`, working in its workspace, and a token of theirs. */
async function member(t: PlatformTenant, role: PlatformRole, environment: 'live' | 'test' = 'test') {
  const now = new Date();
  return api.deps.db.transaction(async (m) => {
    const user = await insertPlatformUser(m, {
      id: newId('usr'),
      organizationId: t.organizationId,
      email: `${role}-${newId('usr').slice(-8)}@tickets.example`,
      name: role,
      role,
      isOrgAdmin: false,
      status: 'active',
      createdAt: now,
    });
    await addPlatformMembership(m, t.workspaceId, user.id);
    const { secret } = await issuePlatformToken(m, { organizationId: t.organizationId, workspaceId: t.workspaceId, userId: user.id, name: role, environment, now });
    return { userId: user.id, token: secret };
  });
}

const create = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.request('POST', '/platform/v1/tickets', { token, body, headers });

const newTicket = async (t: PlatformTenant, extra: Record<string, unknown> = {}, token = t.adminToken) => {
  const res = await create(token, { subject: 'Cannot log in', channel_id: t.channelIds.email, contact_email: 'player@example.com', ...extra });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
};

const patch = (token: string, id: string, body: unknown) => api.request('PATCH', `/platform/v1/tickets/${id}`, { token, body });

describe('POST /tickets and GET /tickets/{id}', () => {
  it('creates an open ticket (201, snake_case, defaults), its ticket.created event and its workflow', async () => {
    const t = await platformTenant(api);
    const res = await create(t.agentToken, {
      subject: 'Crash on start',
      channel_id: t.channelIds.in_game,
      contact_email: 'Player@Example.com',
      body: 'It crashes.',
      tags: ['crash', 'pc', 'crash'],
      assignee_id: t.agentUserId,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const b = res.body;
    assert.match(b.id, /^tkt_/);
    assert.deepEqual(Object.keys(b).sort(), [
      'assignee_id', 'body', 'channel_id', 'closed_at', 'contact_email', 'created_at', 'created_by', 'id', 'priority',
      'resolved_at', 'status', 'subject', 'tags', 'updated_at', 'workspace_id',
    ]);
    assert.equal(b.status, 'open');
    assert.equal(b.priority, 'normal');
    assert.equal(b.workspace_id, t.workspaceId);
    assert.equal(b.created_by, t.agentUserId);
    assert.equal(b.assignee_id, t.agentUserId);
    assert.deepEqual(b.tags, ['crash', 'pc']);
    assert.equal(b.resolved_at, null);

    const got = await api.request('GET', `/platform/v1/tickets/${b.id}`, { token: t.adminToken });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, b);

    const { rows } = await api.deps.db.query(`SELECT type, api, data FROM events WHERE subject_id = $1`, [b.id]);
    assert.deepEqual(rows.map((r) => [r.type, r.api]), [['ticket.created', 'platform']]);
    assert.equal(rows[0].data.contact_email, 'Player@Example.com');
    // the workflow runs (started from the outbox by the platform worker)
    await eventually(async () => {
      const d = await api.deps.temporal.workflow.getHandle(platformTicketWorkflowId(b.id)).describe().catch(() => null);
      return d?.status.name === 'RUNNING';
    }, { what: 'the ticket workflow running' });
  });

  it('refuses bad input with 400 on the field: missing fields, bad email, priority, tags, unknown keys, channel or assignee not of the workspace', async () => {
    const t = await platformTenant(api);
    const other = await platformTenant(api);
    const base = { subject: 's', channel_id: t.channelIds.email, contact_email: 'a@b.example' };
    const bad = async (body: unknown, field: string) => {
      const res = await create(t.adminToken, body as Record<string, unknown>);
      assertPlatformError(res, 400, 'validation_failed');
      assert.ok(res.body.error.details?.[field], `${field} in ${JSON.stringify(res.body)}`);
    };
    await bad({ channel_id: base.channel_id, contact_email: base.contact_email }, 'subject');
    await bad({ ...base, subject: '   ' }, 'subject');
    await bad({ ...base, contact_email: 'not-an-email' }, 'contact_email');
    await bad({ ...base, priority: 'urgent' }, 'priority');
    await bad({ ...base, tags: 'x' }, 'tags');
    await bad({ ...base, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags');
    await bad({ ...base, channel_id: other.channelIds.email }, 'channel_id');
    await bad({ ...base, channel_id: 'ch_nope' }, 'channel_id');
    await bad({ ...base, assignee_id: other.agentUserId }, 'assignee_id');
    const res = await create(t.adminToken, { ...base, color: 'red' });
    assertPlatformError(res, 400, 'validation_failed');
  });

  it('replays a POST under the same Idempotency-Key (one ticket), and refuses another body under it (409)', async () => {
    const t = await platformTenant(api);
    const key = `idem-${newId('req')}`;
    const body = { subject: 'Once', channel_id: t.channelIds.web, contact_email: 'p@example.com' };
    const first = await create(t.adminToken, body, { 'Idempotency-Key': key });
    const again = await create(t.adminToken, body, { 'Idempotency-Key': key });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_tickets WHERE workspace_id = $1`, [t.workspaceId]);
    assert.equal(rows[0].n, 1);
    assertPlatformError(await create(t.adminToken, { ...body, subject: 'Other' }, { 'Idempotency-Key': key }), 409);
  });
});

describe('GET /tickets', () => {
  let t: PlatformTenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await platformTenant(api);
    ids.a = (await newTicket(t, { priority: 'critical', tags: ['billing'], channel_id: t.channelIds.chat, assignee_id: t.agentUserId })).id;
    ids.b = (await newTicket(t, { priority: 'low', tags: ['bug', 'billing'] })).id;
    ids.c = (await newTicket(t, { priority: 'low' })).id;
    assert.equal((await patch(t.adminToken, ids.c, { status: 'pending' })).status, 200);
  });
  const list = async (query: string, token = t.adminToken) => {
    const res = await api.request('GET', `/platform/v1/tickets${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const listed = async (query: string) => (await list(query)).data.map((x: any) => x.id);

  it('lists newest first with the page fields; filters by status, priority, assignee (and none), tag, channel and creation time', async () => {
    const all = await list('');
    assert.deepEqual(all.data.map((x: any) => x.id), [ids.c, ids.b, ids.a]);
    assert.equal(all.total, 3);
    assert.equal(all.page, 1);
    assert.equal(all.per_page, 25);
    assert.equal(all.next_page, null);
    assert.deepEqual(await listed('?status=pending'), [ids.c]);
    assert.deepEqual(await listed('?status=open&priority=low'), [ids.b]);
    assert.deepEqual(await listed(`?assignee=${t.agentUserId}`), [ids.a]);
    assert.deepEqual(await listed('?assignee=none'), [ids.c, ids.b]);
    assert.deepEqual(await listed('?tag=billing'), [ids.b, ids.a]);
    assert.deepEqual(await listed(`?channel=${t.channelIds.chat}`), [ids.a]);
    const aAt = all.data[2].created_at;
    const cAt = all.data[0].created_at;
    assert.deepEqual(await listed(`?created_after=${encodeURIComponent(aAt)}`), [ids.c, ids.b]);
    assert.deepEqual(await listed(`?created_before=${encodeURIComponent(cAt)}`), [ids.b, ids.a]);
  });

  it('pages: per_page 100 is fine, 101 and 0 are 400s, next_page links on, a page beyond the end is empty', async () => {
    assert.equal((await list('?per_page=100')).per_page, 100);
    assertPlatformError(await api.request('GET', '/platform/v1/tickets?per_page=101', { token: t.adminToken }), 400, 'validation_failed');
    assertPlatformError(await api.request('GET', '/platform/v1/tickets?per_page=0', { token: t.adminToken }), 400, 'validation_failed');
    const first = await list('?per_page=2');
    assert.equal(first.data.length, 2);
    assert.equal(first.total, 3);
    assert.ok(first.next_page);
    const next = new URL(first.next_page);
    const second = await list(next.pathname.replace('/platform/v1/tickets', '') + next.search);
    assert.deepEqual(second.data.map((x: any) => x.id), [ids.a]);
    assert.equal(second.next_page, null);
    const beyond = await list('?page=9&per_page=2');
    assert.deepEqual(beyond.data, []);
    assert.equal(beyond.total, 3);
    assert.equal(beyond.next_page, null);
  });

  it('refuses bad filters with 400: a status or date that is not one, a channel or assignee of another tenant', async () => {
    const other = await platformTenant(api);
    for (const q of ['?status=done', '?priority=urgent', '?created_after=yesterday', '?created_before=2026-13-01', `?channel=${other.channelIds.email}`, `?assignee=${other.agentUserId}`]) {
      assertPlatformError(await api.request('GET', `/platform/v1/tickets${q}`, { token: t.adminToken }), 400, 'validation_failed');
    }
  });
});

describe('isolation', () => {
  it('a live token never sees a test ticket (by id 404, absent from lists), and the reverse', async () => {
    const t = await platformTenant(api);
    const live = await member(t, 'manager', 'live');
    const testTicket = await newTicket(t);
    const liveTicket = await newTicket(t, {}, live.token);
    assertPlatformError(await api.request('GET', `/platform/v1/tickets/${testTicket.id}`, { token: live.token }), 404, 'not_found');
    assertPlatformError(await api.request('GET', `/platform/v1/tickets/${liveTicket.id}`, { token: t.adminToken }), 404, 'not_found');
    assertPlatformError(await patch(live.token, testTicket.id, { priority: 'high' }), 404, 'not_found');
    assertPlatformError(await api.request('DELETE', `/platform/v1/tickets/${testTicket.id}`, { token: live.token }), 404, 'not_found');
    const liveList = (await api.request('GET', '/platform/v1/tickets', { token: live.token })).body;
    assert.deepEqual(liveList.data.map((x: any) => x.id), [liveTicket.id]);
    const testList = (await api.request('GET', '/platform/v1/tickets', { token: t.adminToken })).body;
    assert.deepEqual(testList.data.map((x: any) => x.id), [testTicket.id]);
  });

  it("two tenants: each other's ticket ids in the path are 404s; assignee ids in a PATCH body are 400s", async () => {
    const a = await platformTenant(api);
    const b = await platformTenant(api);
    const ta = await newTicket(a);
    for (const [method, path, body] of [
      ['GET', `/platform/v1/tickets/${ta.id}`, undefined],
      ['PATCH', `/platform/v1/tickets/${ta.id}`, { status: 'closed' }],
      ['PUT', `/platform/v1/tickets/${ta.id}/reply`, { body: 'hi' }],
      ['DELETE', `/platform/v1/tickets/${ta.id}`, undefined],
      ['POST', `/platform/v1/tickets/${ta.id}/restore`, undefined],
    ] as const) {
      assertPlatformError(await api.request(method, path, { token: b.adminToken, body }), 404, 'not_found');
    }
    assertPlatformError(await api.request('GET', '/platform/v1/tickets/nonsense', { token: b.adminToken }), 404, 'not_found');
    const tb = await newTicket(b);
    const res = await patch(b.adminToken, tb.id, { assignee_id: a.agentUserId });
    assertPlatformError(res, 400, 'validation_failed');
    assert.ok(res.body.error.details.assignee_id);
    // nothing of a's changed
    assert.equal((await api.request('GET', `/platform/v1/tickets/${ta.id}`, { token: a.adminToken })).body.status, 'open');
  });
});

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
