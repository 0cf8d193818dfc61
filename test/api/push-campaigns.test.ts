// Campaigns over HTTP (/api/v1/campaigns) with the suite's push worker: create (201
// Draft), list (paged), get, send (202, a second send 409), schedule (400 for a time not
// ahead, reschedule through the workflow), cancel (a Draft, a scheduled campaign, a
// campaign sending), analytics, the 404/403 of other apps, every call on a finished
// campaign, and deleting the app of a scheduled campaign.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { createApp } from '../../api/app';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, startPushApi } from '../support/push';
import { createMatchAllSegment, createTwoAppTenant, insertManyDevices, type TwoAppTenant } from '../support/push-device-factories';
import { campaignPushes, campaignResult } from '../support/push-campaigns';
import { pushTenant } from '../support/push-send';
import { eventually } from '../support/eventually';
import { campaignWorkflowId } from '../../workflows/campaign/contract';

describe('push campaigns', () => {
  let api: TestApi;
  let t: TwoAppTenant;
  let other: TwoAppTenant;
  beforeAll(async () => {
    api = await startPushApi();
    t = await createTwoAppTenant(api);
    other = await createTwoAppTenant(api);
    await insertManyDevices(api.deps.db, t.appA, 30, (n) => ({ platform: 'Android', deviceMetadata: { tier: n <= 10 ? 'gold' : 'free' } }));
  });
  afterAll(async () => api?.stop());

  const user = () => bearer(t.userToken);
  const create = (body: Record<string, unknown>, headers: Record<string, string> = user()) =>
    api.request('POST', '/api/v1/campaigns', { headers, body: { appId: t.appA, name: 'Launch', title: 'Hello', body: 'World', targetType: 'All', ...body } });
  const call = (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = user()) =>
    api.request(method, `/api/v1/campaigns${path}`, { headers, body });
  const draft = async (body: Record<string, unknown> = {}) => {
    const res = await create(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('POST creates a Draft (201); targetType in any letter case, answered as Segment/All; an API key of the app may create', async () => {
    const segmentId = await createMatchAllSegment(api.deps.db, t.appA);
    const res = await create({ targetType: 'segment', segmentId, imageUrl: 'https://cdn.example/a.png', deepLink: 'game://x', customData: { level: 3 } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...res.body, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined, appId: t.appA, name: 'Launch', title: 'Hello', body: 'World', imageUrl: 'https://cdn.example/a.png', deepLink: 'game://x',
        customData: { level: 3 }, targetType: 'Segment', segmentId, status: 'Draft', scheduledAt: null, recipients: null, failureReason: null,
        createdAt: undefined, updatedAt: undefined, startedAt: null, finishedAt: null,
      },
    );
    const byKey = await create({ targetType: 'ALL' }, apiKeyHeader(t.keyA));
    assert.equal(byKey.status, 201, JSON.stringify(byKey.body));
    assert.equal(byKey.body.targetType, 'All');
  });

  it('bad input: 400s naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '' }, 'title'],
      [{ body: undefined }, 'body'],
      [{ name: '  ' }, 'name'],
      [{ targetType: 'Everyone' }, 'targetType'],
      [{ targetType: 'Segment' }, 'segmentId'],
      [{ targetType: 'All', segmentId: randomUUID() }, 'segmentId'],
      [{ imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
      [{ customData: { notificationId: 'x' } }, 'customData.notificationId'],
      [{ appId: 'nope' }, 'appId'],
      [{ extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      assertPushError(res, 400, 'VALIDATION_FAILED');
      if (field) assert.ok(res.body.errors[field], `${JSON.stringify(body)}: no errors['${field}'] in ${JSON.stringify(res.body.errors)}`);
    }
  });

  it("another app's segment, another company's app and campaign: 404; another app's key: 403; no credential: 401", async () => {
    const foreignSegment = await createMatchAllSegment(api.deps.db, t.appB);
    assertPushError(await create({ targetType: 'Segment', segmentId: foreignSegment }), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await create({ appId: other.appA }), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await create({ appId: t.appB }, apiKeyHeader(t.keyA)), 403, 'FORBIDDEN');
    assertPushError(await api.request('POST', '/api/v1/campaigns', { body: {} }), 401, 'UNAUTHORIZED');
    const c = await draft();
    for (const [method, path] of [['GET', ''], ['POST', '/send'], ['POST', '/cancel'], ['GET', '/analytics']] as const) {
      assertPushError(await call(method, `/${c.id}${path}`, undefined, bearer(other.userToken)), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await call(method, `/${c.id}${path}`, undefined, apiKeyHeader(t.keyB)), 403, 'FORBIDDEN');
      assertPushError(await call(method, `/${randomUUID()}${path}`), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await call(method, `/not-a-uuid${path}`), 404, 'RESOURCE_NOT_FOUND');
    }
    assertPushError(await call('POST', `/${c.id}/schedule`, { scheduledAt: ahead(60_000) }, bearer(other.userToken)), 404, 'RESOURCE_NOT_FOUND');
    assertPushError(await call('GET', `?appId=${other.appA}`), 404, 'RESOURCE_NOT_FOUND');
  });

  it('GET /campaigns?appId= is paged, newest first (default 20, at most 100)', async () => {
    const app = (await createTwoAppTenant(api));
    const made = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.request('POST', '/api/v1/campaigns', { headers: bearer(app.userToken), body: { appId: app.appA, name: `c${i}`, title: 't', body: 'b', targetType: 'All' } });
      made.push(res.body.id);
    }
    const page = await api.request('GET', `/api/v1/campaigns?appId=${app.appA}&pageSize=2`, { headers: bearer(app.userToken) });
    assert.equal(page.status, 200);
    assert.deepEqual({ ...page.body, items: page.body.items.map((c: { id: string }) => c.id) }, { items: [made[2], made[1]], total: 3, page: 1, pageSize: 2, totalPages: 2 });
    const second = await api.request('GET', `/api/v1/campaigns?appId=${app.appA}&pageSize=2&page=2`, { headers: bearer(app.userToken) });
    assert.deepEqual(second.body.items.map((c: { id: string }) => c.id), [made[0]]);
    const all = await api.request('GET', `/api/v1/campaigns?appId=${app.appA}`, { headers: bearer(app.userToken) });
    assert.equal(all.body.pageSize, 20);
    assertPushError(await api.request('GET', `/api/v1/campaigns?appId=${app.appA}&pageSize=101`, { headers: bearer(app.userToken) }), 400, 'VALIDATION_FAILED');
    assertPushError(await api.request('GET', '/api/v1/campaigns', { headers: bearer(app.userToken) }), 400, 'VALIDATION_FAILED');
  });

  it('send: 202 Queued with the estimate, a second send 409; it completes; then every call answers as documented', async () => {
    const segment = await api.request('POST', '/api/v1/segments', {
      headers: user(),
      body: { appId: t.appA, name: 'gold', filter: { operator: 'AND', conditions: [{ field: 'deviceMetadata.tier', operator: 'equals', value: 'gold' }] } },
    });
    const c = await draft({ targetType: 'Segment', segmentId: segment.body.id });
    const sent = await call('POST', `/${c.id}/send`, undefined, { ...user(), 'idempotency-key': `k-${c.id}` });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.deepEqual(sent.body, { campaignId: c.id, status: 'Queued', estimatedRecipients: 10 });
    const replay = await call('POST', `/${c.id}/send`, undefined, { ...user(), 'idempotency-key': `k-${c.id}` });
    assert.equal(replay.status, 202, 'the same key replays the first answer');
    assertPushError(await call('POST', `/${c.id}/send`), 409, 'CONFLICT');

    const result = await campaignResult(api.deps.temporal, c.id);
    assert.equal(result.status, 'Completed');
    const done = (await call('GET', `/${c.id}`)).body;
    assert.equal(done.status, 'Completed');
    assert.equal(done.recipients, 10);
    assert.ok(done.startedAt && done.finishedAt);
    // the app has no credentials: each device is recorded failed, as a direct send records it
    const analytics = await call('GET', `/${c.id}/analytics`);
    assert.equal(analytics.status, 200);
    assert.deepEqual(analytics.body, {
      campaignId: c.id, sent: 0, delivered: 0, opened: 0, failed: 10, deliveryRate: 0, openRate: 0,
      platformBreakdown: { android: { sent: 0, delivered: 0, opened: 0, failed: 10 }, ios: { sent: 0, delivered: 0, opened: 0, failed: 0 } },
    });
    // a finished campaign: send, schedule and cancel are 409s, reads answer
    assertPushError(await call('POST', `/${c.id}/send`), 409, 'CONFLICT');
    assertPushError(await call('POST', `/${c.id}/schedule`, { scheduledAt: ahead(60_000) }), 409, 'CONFLICT');
    assertPushError(await call('POST', `/${c.id}/cancel`), 409, 'CONFLICT');
    assert.equal((await call('GET', `/${c.id}`)).status, 200);
  });

  it('create and send committed but their answers never stored: a retry after the lease answers the same campaign and the same 202', async () => {
    const lost = async (key: string) => {
      // the state a request leaves when it dies between its commit and storing its answer
      const { rowCount } = await api.deps.db.query(
        `UPDATE idempotency_keys SET status_code = NULL, response = NULL, locked_until = now() - interval '1 second' WHERE key = $1`,
        [key],
      );
      assert.equal(rowCount, 1);
    };
    const key = `campaign-${randomUUID()}`;
    const first = await create({ name: key }, { ...user(), 'idempotency-key': key });
    assert.equal(first.status, 201);
    await lost(key);
    const retry = await create({ name: key }, { ...user(), 'idempotency-key': key });
    assert.equal(retry.status, 201);
    assert.equal(retry.body.id, first.body.id, 'the same Draft, not a second one');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM push_campaigns WHERE name = $1`, [key]);
    assert.equal(rows[0].n, 1);

    const sendKey = `send-${key}`;
    const sent = await call('POST', `/${first.body.id}/send`, undefined, { ...user(), 'idempotency-key': sendKey });
    assert.equal(sent.status, 202);
    await lost(sendKey);
    const again = await call('POST', `/${first.body.id}/send`, undefined, { ...user(), 'idempotency-key': sendKey });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.deepEqual({ ...again.body, estimatedRecipients: 0 }, { ...sent.body, estimatedRecipients: 0 });
    assertPushError(await call('POST', `/${first.body.id}/send`), 409, 'CONFLICT');
    assert.equal((await campaignResult(api.deps.temporal, first.body.id)).status, 'Completed');
  });

  it('a Draft has zeros for analytics; cancelling a Draft: Cancelled, never sent; then 409s', async () => {
    const c = await draft();
    const analytics = await call('GET', `/${c.id}/analytics`);
    assert.equal(analytics.body.sent, 0);
    assert.equal(analytics.body.deliveryRate, 0);
    const cancelled = await call('POST', `/${c.id}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'Cancelled');
    assert.equal(cancelled.body.alreadySent, 0);
    assertPushError(await call('POST', `/${c.id}/send`), 409, 'CONFLICT');
    assertPushError(await call('POST', `/${c.id}/cancel`), 409, 'CONFLICT');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM workflow_starts WHERE workflow_id = $1`, [campaignWorkflowId(c.id)]);
    assert.equal(rows[0].n, 0, 'no workflow for a cancelled Draft');
  });

  it('schedule: a time not ahead or not a date-time is a 400; scheduled, rescheduled, send 409, cancelled: never sends', async () => {
    const c = await draft();
    for (const scheduledAt of [new Date(Date.now() - 1000).toISOString(), 'tomorrow', '2030-01-01', '9999-12-31T00:00:00Z']) {
      const res = await call('POST', `/${c.id}/schedule`, { scheduledAt });
      assertPushError(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.body.errors.scheduledAt, JSON.stringify(res.body));
    }
    const first = ahead(3 * 86_400_000);
    const scheduled = await call('POST', `/${c.id}/schedule`, { scheduledAt: first });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    assert.equal(scheduled.body.status, 'Scheduled');
    assert.equal(scheduled.body.scheduledAt, first);
    // at once: the workflow may still wait in the outbox (update-with-start) or run
    const later = ahead(4 * 86_400_000);
    const moved = await call('POST', `/${c.id}/schedule`, { scheduledAt: later });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.scheduledAt, later);
    assert.equal(moved.body.status, 'Scheduled');
    assertPushError(await call('POST', `/${c.id}/send`), 409, 'CONFLICT');
    const state = await api.deps.temporal.workflow.getHandle(campaignWorkflowId(c.id)).query<{ phase: string; scheduledAt: string }>('state');
    assert.deepEqual({ phase: state.phase, scheduledAt: state.scheduledAt }, { phase: 'waiting', scheduledAt: later });

    const cancelled = await call('POST', `/${c.id}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'Cancelled');
    assert.equal(cancelled.body.alreadySent, 0);
    assert.equal((await campaignResult(api.deps.temporal, c.id)).status, 'Cancelled');
    assertPushError(await call('POST', `/${c.id}/schedule`, { scheduledAt: ahead(60_000) }), 409, 'CONFLICT');
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM push_sends WHERE campaign_id = $1`, [c.id]);
    assert.equal(rows[0].n, 0, 'no audience was taken');
  });

  it('a campaign scheduled 2 s ahead sends then, on its own', async () => {
    const c = await draft();
    const res = await call('POST', `/${c.id}/schedule`, { scheduledAt: ahead(2000) });
    assert.equal(res.status, 200);
    const result = await campaignResult(api.deps.temporal, c.id);
    assert.equal(result.status, 'Completed');
    const done = (await call('GET', `/${c.id}`)).body;
    assert.equal(done.recipients, 30);
    assert.ok(Date.parse(done.startedAt) >= Date.parse(res.body.scheduledAt), 'not before its time');
  });

  it('cancel while sending (8,000 devices): stops between pages; what was pushed is what it says, once each, the rest cancelled', async () => {
    const tenant = await pushTenant(api);
    await insertManyDevices(api.deps.db, tenant.appId, 8000, (n) => ({ platform: n % 2 ? 'Android' : 'iOS', deviceMetadata: {} }));
    const c = (await api.request('POST', '/api/v1/campaigns', { token: tenant.token, body: { appId: tenant.appId, name: 'big', title: 't', body: 'b', targetType: 'All' } })).body;
    assert.equal((await api.request('POST', `/api/v1/campaigns/${c.id}/send`, { token: tenant.token })).status, 202);
    // once some pushes arrived
    await eventually(async () => (campaignPushes(c.id).length > 0 ? true : undefined), { timeoutMs: 30_000, everyMs: 20 });
    const res = await api.request('POST', `/api/v1/campaigns/${c.id}/cancel`, { token: tenant.token });
    if (res.status === 409) return; // it finished first on a fast machine: nothing to cancel
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'Cancelled');
    const { rows } = await api.deps.db.query(
      `SELECT n.status, count(*)::int AS n FROM push_notifications n JOIN push_sends s ON s.id = n.send_id WHERE s.campaign_id = $1 GROUP BY n.status`,
      [c.id],
    );
    const by = Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
    assert.equal(by.sent ?? 0, res.body.alreadySent);
    assert.equal((by.sent ?? 0) + (by.cancelled ?? 0) + (by.failed ?? 0), 8000);
    // 16 pages, at most 8 in flight when the first pushes arrived: the others never went out
    assert.ok(by.cancelled > 0, `nothing was left to cancel: ${JSON.stringify(by)}`);
    assert.equal(by.queued, undefined, 'no row left queued');
    assert.equal((await campaignResult(api.deps.temporal, c.id)).status, 'Cancelled');
    const pushes = campaignPushes(c.id);
    assert.equal(new Set(pushes.map((p) => p.token)).size, pushes.length, 'each device at most once');
    assert.equal(pushes.length, res.body.alreadySent);
  });

  it('Temporal unreachable: send and schedule still answer (the outbox); a cancel of a queued campaign is a 503 within 10 s, nothing changed', async () => {
    const deadTemporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
    const server = createApp({ ...api.deps, temporal: deadTemporal }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const dead = (path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/campaigns${path}`, {
        method: 'POST',
        headers: { ...user(), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      const a = await draft();
      const sent = await dead(`/${a.id}/send`);
      assert.equal(sent.status, 202);
      const b = await draft();
      assert.equal((await dead(`/${b.id}/schedule`, { scheduledAt: ahead(86_400_000) })).status, 200);
      const started = Date.now();
      const refused = await dead(`/${b.id}/cancel`);
      assert.equal(refused.status, 503);
      assert.equal(((await refused.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');
      assert.ok(Date.now() - started < 10_000);
      assert.equal((await call('GET', `/${b.id}`)).body.status, 'Scheduled', 'nothing changed');
      // the suite's dispatcher started both from the outbox
      assert.equal((await campaignResult(api.deps.temporal, a.id)).status, 'Completed');
      assert.equal((await call('POST', `/${b.id}/cancel`)).status, 200);
    } finally {
      server.close();
    }
  });

  it("deleting the app cancels its scheduled campaign's workflow and drops what waits in the outbox", async () => {
    const app = await createTwoAppTenant(api);
    const mk = async () =>
      (await api.request('POST', '/api/v1/campaigns', { headers: bearer(app.userToken), body: { appId: app.appA, name: 'x', title: 't', body: 'b', targetType: 'All' } })).body;
    const running = await mk();
    await api.request('POST', `/api/v1/campaigns/${running.id}/schedule`, { headers: bearer(app.userToken), body: { scheduledAt: ahead(86_400_000) } });
    const handle = api.deps.temporal.workflow.getHandle(campaignWorkflowId(running.id));
    await eventually(async () => handle.describe().then(() => true, (e) => (e instanceof WorkflowNotFoundError ? undefined : Promise.reject(e))));
    const del = await api.request('DELETE', `/api/v1/apps/${app.appA}`, { headers: bearer(app.userToken) });
    assert.equal(del.status, 204);
    await eventually(async () => ((await handle.describe()).status.name === 'CANCELLED' ? true : undefined));
    assertPushError(await api.request('GET', `/api/v1/campaigns/${running.id}`, { headers: bearer(app.userToken) }), 404, 'RESOURCE_NOT_FOUND');
  });
});
