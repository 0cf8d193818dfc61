// Campaigns over HTTP (/api/v1/campaigns) with the suite's push worker: create (201
// Draft), list (paged), get, send (202, a second send 409), analytics, the 404/403 of
// other apps, every call on a finished campaign, a lost answer's retry, a segment gone
// before sending, and cancelling a Draft. Scheduling, cancelling a campaign that waits or
// sends, Temporal away and app deletion: push-campaigns-schedule-cancel.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer } from '../support/push';
import { createMatchAllSegment, createTwoAppTenant, type TwoAppTenant } from '../support/push-device-factories';
import { ahead, campaignResult, useCampaignApi } from '../support/push-campaigns';
import { campaignWorkflowId } from '../../workflows/campaign/contract';

describe('push campaigns', () => {
  const s = useCampaignApi();
  let api: TestApi;
  let t: TwoAppTenant;
  let other: TwoAppTenant;
  beforeAll(() => void ({ api, t, other } = s));
  const { user, create, call, draft } = s;

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
      [{ customData: { a: 'x\ud800' } }, 'customData.a'],
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

  it('a segment deleted before sending starts: the campaign is Failed with its reason, nothing sent', async () => {
    const segmentId = await createMatchAllSegment(api.deps.db, t.appA, 'soon gone');
    const c = await draft({ targetType: 'Segment', segmentId });
    await api.deps.db.query(`DELETE FROM push_segments WHERE id = $1`, [segmentId]);
    const sent = await call('POST', `/${c.id}/send`);
    assert.equal(sent.status, 202);
    assert.equal(sent.body.estimatedRecipients, 0);
    assert.equal((await campaignResult(api.deps.temporal, c.id)).status, 'Failed');
    const failed = (await call('GET', `/${c.id}`)).body;
    assert.equal(failed.status, 'Failed');
    assert.match(failed.failureReason, /segment/);
    assertPushError(await call('POST', `/${c.id}/cancel`), 409, 'CONFLICT');
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

});
