// Platform tickets over HTTP with the real platform worker: create (201 without waiting on
// Temporal, its event and its workflow), read, list with every filter and the page bounds;
// live/test isolation, two tenants' ids in the path, the body and the filters, and an
// Idempotency-Key replay. Changes through the workflow: platform-tickets-changes.test.ts.
import assert from 'node:assert/strict';
import { newId } from '../../lib/ids';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { ticketRequests } from './platform-tickets-helpers';

let api: TestApi;
let member: ReturnType<typeof ticketRequests>['member'];
let create: ReturnType<typeof ticketRequests>['create'];
let newTicket: ReturnType<typeof ticketRequests>['newTicket'];
let patch: ReturnType<typeof ticketRequests>['patch'];
beforeAll(async () => {
  api = await startPlatformApi();
  ({ member, create, newTicket, patch } = ticketRequests(api));
});
afterAll(() => api?.stop());

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
