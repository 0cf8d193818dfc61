// GET /platform/v1/analytics/summary over real rows (docs/platform.md, "Analytics"): the
// counts, medians and breaches of a window, totals, by priority and by channel, from the
// recorded facts; soft-deleted tickets, the other environment and tickets outside the
// window left out; the empty window; who may read it (manager and admin; a workspace out
// of reach: 404) and bad parameters (400 in the platform envelope).
import assert from 'node:assert/strict';
import { insertPlatformTicket } from '../../db/repositories/platform-tickets';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformEnvironment, PlatformTicketPriority } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import type { TestApi } from '../support/api';
import { validateOpenApi } from '../support/openapi-validator';
import { assertPlatformError, platformMember, platformTenant, startPlatformApi } from '../support/platform';

const FROM = '2026-10-01T00:00:00.000Z';
const TO = '2026-10-31T00:00:00.000Z';
const H = 3600;
const D = 24 * H;

interface Facts {
  priority: PlatformTicketPriority;
  channel: 'email' | 'web' | 'chat';
  createdAt: string;
  environment?: PlatformEnvironment;
  status?: 'open' | 'pending' | 'resolved' | 'closed';
  firstResponseAt?: string;
  resolvedAt?: string;
  closedAt?: string;
  firstResponseBreachedAt?: string;
  resolutionBreachedAt?: string;
  deletedAt?: string;
}

describe('platform analytics summary', () => {
  let api: TestApi;
  let t: PlatformTenant;
  let manager: string;

  /** A ticket row with its recorded facts, written as the create and the workflow's steps leave them. */
  async function ticket(f: Facts): Promise<string> {
    const id = newId('tkt');
    await insertPlatformTicket(api.deps.db, {
      id, organizationId: t.organizationId, workspaceId: t.workspaceId, environment: f.environment ?? 'test', channelId: t.channelIds[f.channel],
      subject: 'Analytics', body: '', contactEmail: 'p@example.com', priority: f.priority, assigneeId: null, tags: [], createdAt: new Date(f.createdAt), createdBy: t.adminUserId,
    });
    await api.deps.db.query(
      `UPDATE platform_tickets SET status = $2, first_response_at = $3, resolved_at = $4, closed_at = $5, first_response_breached_at = $6,
              resolution_breached_at = $7, deleted_at = $8, purge_at = $8::timestamptz + interval '30 days' WHERE id = $1`,
      [id, f.status ?? 'open', f.firstResponseAt ?? null, f.resolvedAt ?? null, f.closedAt ?? null, f.firstResponseBreachedAt ?? null, f.resolutionBreachedAt ?? null, f.deletedAt ?? null],
    );
    return id;
  }

  const summary = (token: string, query = '') => api.request('GET', `/platform/v1/analytics/summary${query}`, { token });
  const counts = (created: number, resolved: number, backlog: number, fr: number | null, res: number | null, frBreaches: number, resBreaches: number) => ({
    created,
    resolved,
    backlog,
    median_first_response_seconds: fr,
    median_resolution_seconds: res,
    sla_breaches: { first_response: frBreaches, resolution: resBreaches },
  });

  beforeAll(async () => {
    api = await startPlatformApi();
    t = await platformTenant(api);
    manager = (await platformMember(api, t, 'manager')).token;
    // A: critical, email, answered after 10 min, resolved after 2 h
    await ticket({ priority: 'critical', channel: 'email', createdAt: '2026-10-02T00:00:00Z', status: 'resolved', firstResponseAt: '2026-10-02T00:10:00Z', resolvedAt: '2026-10-02T02:00:00Z' });
    // B: critical, web, first response breached at 1 h, answered at 2 h, still open
    await ticket({ priority: 'critical', channel: 'web', createdAt: '2026-10-03T00:00:00Z', firstResponseAt: '2026-10-03T02:00:00Z', firstResponseBreachedAt: '2026-10-03T01:00:00Z' });
    // C: high, email, never answered, both policies breached, pending
    await ticket({ priority: 'high', channel: 'email', createdAt: '2026-10-05T00:00:00Z', status: 'pending', firstResponseBreachedAt: '2026-10-05T04:00:00Z', resolutionBreachedAt: '2026-10-06T00:00:00Z' });
    // D: normal, email, created before the window, answered and resolved in it (6.5 d, 9 d)
    await ticket({ priority: 'normal', channel: 'email', createdAt: '2026-09-25T00:00:00Z', status: 'resolved', firstResponseAt: '2026-10-01T12:00:00Z', resolvedAt: '2026-10-04T00:00:00Z' });
    // E: low, web, closed after a day without being resolved
    await ticket({ priority: 'low', channel: 'web', createdAt: '2026-10-10T00:00:00Z', status: 'closed', closedAt: '2026-10-11T00:00:00Z' });
    // F: soft-deleted; G: live; H: created after the window: none of them counts for a test token
    await ticket({ priority: 'normal', channel: 'email', createdAt: '2026-10-20T00:00:00Z', deletedAt: '2026-10-21T00:00:00Z' });
    await ticket({ priority: 'normal', channel: 'email', createdAt: '2026-10-20T00:00:00Z', environment: 'live' });
    await ticket({ priority: 'high', channel: 'chat', createdAt: '2026-11-02T00:00:00Z', firstResponseAt: '2026-11-02T00:05:00Z', firstResponseBreachedAt: '2026-11-02T04:00:00Z' });
    // I: open since before the window; J: resolved before it
    await ticket({ priority: 'normal', channel: 'email', createdAt: '2026-09-01T00:00:00Z' });
    await ticket({ priority: 'normal', channel: 'web', createdAt: '2026-09-01T00:00:00Z', status: 'resolved', resolvedAt: '2026-09-10T00:00:00Z' });
    // K: critical, email, created in the window and resolved after it: backlog at `to`
    await ticket({ priority: 'critical', channel: 'email', createdAt: '2026-10-29T00:00:00Z', status: 'resolved', resolvedAt: '2026-11-01T00:00:00Z' });
  });
  afterAll(() => api?.stop());

  it('counts the window from the recorded facts: totals, by priority and by channel', async () => {
    const res = await summary(manager, `?from=${FROM}&to=${TO}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.workspace_id, t.workspaceId);
    assert.equal(res.body.environment, 'test');
    assert.equal(res.body.from, FROM);
    assert.equal(res.body.to, TO);
    // medians: first response over A 600, B 7200, D 561600; resolution over A 7200, D 777600, E 86400
    assert.deepEqual(res.body.totals, counts(5, 3, 4, 2 * H, D, 2, 1));
    assert.deepEqual(res.body.by_priority, [
      { priority: 'critical', ...counts(3, 1, 2, 3900, 2 * H, 1, 0) },
      { priority: 'high', ...counts(1, 0, 1, null, null, 1, 1) },
      { priority: 'normal', ...counts(0, 1, 1, 561600, 9 * D, 0, 0) },
      { priority: 'low', ...counts(1, 1, 0, null, D, 0, 0) },
    ]);
    const byChannel = new Map(res.body.by_channel.map((c: { channel_id: string }) => [c.channel_id, c]));
    assert.deepEqual(byChannel.get(t.channelIds.email), { channel_id: t.channelIds.email, ...counts(3, 2, 3, 281100, 392400, 1, 1) });
    assert.deepEqual(byChannel.get(t.channelIds.web), { channel_id: t.channelIds.web, ...counts(2, 1, 1, 2 * H, D, 1, 0) });
    assert.deepEqual(byChannel.get(t.channelIds.chat), { channel_id: t.channelIds.chat, ...counts(0, 0, 0, null, null, 0, 0) });
    assert.equal(res.body.by_channel.length, Object.keys(t.channelIds).length, "every channel of the workspace, once");
  });

  it('a live token reads live tickets only', async () => {
    const live = await platformMember(api, t, 'admin', { environment: 'live' });
    const res = await summary(live.token, `?from=${FROM}&to=${TO}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.environment, 'live');
    assert.deepEqual(res.body.totals, counts(1, 0, 1, null, null, 0, 0));
  });

  it('an empty window: zeros and nulls, every priority and channel listed', async () => {
    const res = await summary(manager, '?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const none = counts(0, 0, 0, null, null, 0, 0);
    assert.deepEqual(res.body.totals, none);
    assert.deepEqual(res.body.by_priority.map((p: { priority: string }) => p.priority), ['critical', 'high', 'normal', 'low']);
    for (const row of [...res.body.by_priority, ...res.body.by_channel]) assert.deepEqual({ ...row, priority: undefined, channel_id: undefined }, { ...none, priority: undefined, channel_id: undefined });
  });

  it('defaults: to now, from 30 days before; a window of exactly 366 days is taken', async () => {
    const res = await summary(manager);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(Date.parse(res.body.to) - Date.parse(res.body.from), 30 * D * 1000);
    const onlyTo = await summary(manager, `?to=${TO}`);
    assert.equal(onlyTo.body.from, '2026-10-01T00:00:00.000Z');
    const year = await summary(manager, '?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z');
    assert.equal(year.status, 200, JSON.stringify(year.body));
    const offset = await summary(manager, `?from=2026-10-01T02:00:00%2B02:00&to=${TO}`);
    assert.equal(offset.body.from, FROM, 'an offset is read as the instant it names');
  });

  it('who may read it: managers and admins; agents 403; a workspace out of reach 404', async () => {
    assertPlatformError(await summary(t.agentToken), 403, 'forbidden');
    assert.equal((await summary(t.adminToken, `?workspace_id=${t.workspaceId}`)).status, 200);
    const other = await platformTenant(api);
    assertPlatformError(await summary(manager, `?workspace_id=${other.workspaceId}`), 404, 'not_found');
    assertPlatformError(await summary(other.adminToken, `?workspace_id=${t.workspaceId}`), 404, 'not_found');
    assertPlatformError(await summary(manager, '?workspace_id=ws_nope'), 404, 'not_found');
    assertPlatformError(await summary(manager, '?workspace_id=nonsense'), 404, 'not_found');
    // a second workspace of the organisation: the organisation admin reaches it, the workspace's manager does not
    const second = await api.request('POST', '/platform/v1/workspaces', { token: t.adminToken, body: { name: 'Second' } });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    const ofSecond = await summary(t.adminToken, `?workspace_id=${second.body.id}&from=${FROM}&to=${TO}`);
    assert.equal(ofSecond.status, 200, JSON.stringify(ofSecond.body));
    assert.equal(ofSecond.body.totals.created, 0);
    assertPlatformError(await summary(manager, `?workspace_id=${second.body.id}`), 404, 'not_found');
  });

  it('bad parameters: 400 validation_failed naming the field', async () => {
    const bad: Array<[string, string]> = [
      ['?from=yesterday', 'from'],
      ['?to=2026-13-01T00:00:00Z', 'to'],
      ['?to=2026-11-27T10:00:00%2B25:00', 'to'],
      ['?from=0000-01-01T00:00:00Z&to=0000-02-01T00:00:00Z', 'to'],
      [`?from=${TO}&to=${FROM}`, 'from'],
      [`?from=${TO}&to=${TO}`, 'from'],
      ['?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:01Z', 'to'],
      ['?from=a&from=b', 'from'],
      ['?workspace_id=', 'workspace_id'],
    ];
    for (const [query, field] of bad) {
      const res = await summary(manager, query);
      assertPlatformError(res, 400, 'validation_failed');
      assert.ok(res.body.error.details?.[field], `${query}: ${JSON.stringify(res.body)}`);
    }
  });

  it('is in the OpenAPI document, which stays valid', async () => {
    const doc = await api.request('GET', '/platform/v1/openapi.json');
    assert.ok(doc.body.paths['/platform/v1/analytics/summary']?.get, 'the path is described');
    const { valid, errors } = await validateOpenApi(doc.body);
    assert.ok(valid, JSON.stringify(errors));
  });
});
