// Campaigns over HTTP with the suite's push worker, after their Draft: schedule (400 for a
// time not ahead, reschedule through the workflow), a scheduled campaign sending on its
// own, cancel (a scheduled campaign, a campaign sending), Temporal unreachable, and
// deleting the app of a scheduled campaign.
import assert from 'node:assert/strict';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { createApp } from '../../api/app';
import type { TestApi } from '../support/api';
import { assertPushError, bearer } from '../support/push';
import { createTwoAppTenant, insertManyDevices, type TwoAppTenant } from '../support/push-device-factories';
import { ahead, campaignPushes, campaignResult, useCampaignApi } from '../support/push-campaigns';
import { pushTenant } from '../support/push-send';
import { eventually } from '../support/eventually';
import { campaignWorkflowId } from '../../workflows/campaign/contract';

describe('push campaigns: schedule and cancel', () => {
  const s = useCampaignApi();
  let api: TestApi;
  let t: TwoAppTenant;
  let other: TwoAppTenant;
  beforeAll(() => void ({ api, t, other } = s));
  const { user, create, call, draft } = s;

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

  it('Temporal unreachable: send and schedule still answer (the outbox); a cancel of a scheduled campaign is a 503 within 10 s, nothing changed', async () => {
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
      assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
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
