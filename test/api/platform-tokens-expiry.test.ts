// Platform tokens over HTTP, their expiry and their create path: a token with
// `expires_in_days` commits with its expiry timer's outbox entry (one transaction), which
// the suite's platform worker starts (`platform-token-expiry/<id>`); with an
// injected clock it works at expiry − 1 ms and is a 401 at the exact expiry, and the list
// shows it `expired`. Idempotency-Key on POST /auth/tokens: the same key and body replay
// the same token (the answer stored sealed), another body is a 409, and a key whose first
// attempt committed but never stored its answer makes exactly one usable token.
import assert from 'node:assert/strict';
import { hashApiKey } from '../../lib/api-keys';
import { platformTokenExpiryWorkflowId } from '../../workflows/platform-token/contract';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';

const DAY = 86_400_000;
// in the future of the real clock: the suite's platform worker starts each token's timer
// from the outbox, and it must not fire (at real time) while the API's clock stands earlier
const T0 = new Date(Date.UTC(new Date().getUTCFullYear() + 2, 2, 1, 12));
let now = T0;
let api: TestApi;

beforeAll(async () => {
  api = await startPlatformApi({}, { clock: () => now });
});
afterAll(() => api?.stop());
beforeEach(() => {
  now = T0;
});

const tokenIdOf = async (secret: string) =>
  (await api.deps.db.query(`SELECT id FROM platform_tokens WHERE secret_hash = $1`, [hashApiKey(secret)])).rows[0].id as string;

describe('expiry', () => {
  for (const days of [30, 60, 90]) {
    it(`a ${days}-day token: its timer's outbox entry commits with the row; it works at expiry − 1 ms, is a 401 at the expiry, and lists as expired`, async () => {
      const t = await platformTenant(api, { now: T0 });
      const made = await api.request('POST', '/platform/v1/auth/tokens', {
        token: t.agentToken,
        body: { name: `expires ${days}`, workspace_id: t.workspaceId, environment: 'test', expires_in_days: days },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const expiresAt = T0.getTime() + days * DAY;
      assert.equal(made.body.expires_at, new Date(expiresAt).toISOString());

      // the expiry timer was enqueued with the token: the suite's platform worker starts it from the outbox
      const workflowId = platformTokenExpiryWorkflowId(made.body.id);
      const run = await eventually(
        async () => {
          try {
            return await api.deps.temporal.workflow.getHandle(workflowId).describe();
          } catch {
            return undefined; // not started yet: the entry waits in workflow_starts
          }
        },
        { what: `${workflowId} started from the outbox` },
      );
      assert.equal(run.type, 'platformTokenExpiryWorkflow');
      assert.equal(run.taskQueue, 'platform');
      assert.equal(run.status.name, 'RUNNING', 'sleeping until the expiry');
      const history = await api.deps.temporal.workflow.getHandle(workflowId).fetchHistory();
      const input = history.events![0].workflowExecutionStartedEventAttributes!.input!.payloads![0].data!;
      assert.deepEqual(JSON.parse(Buffer.from(input).toString()), { tokenId: made.body.id, expiresAt: new Date(expiresAt).toISOString() });

      now = new Date(expiresAt - 1);
      const before = await api.request('GET', '/platform/v1/auth/tokens', { token: made.body.token });
      assert.equal(before.status, 200, JSON.stringify(before.body));
      assert.equal(before.body.data.find((x: any) => x.id === made.body.id).status, 'active');

      now = new Date(expiresAt);
      assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: made.body.token }), 401, 'unauthorized');
      assertPlatformError(
        await api.request('POST', '/platform/v1/auth/tokens', { token: made.body.token, body: { name: 'x', workspace_id: t.workspaceId, environment: 'test' } }),
        401,
        'unauthorized',
      );
      const list = await api.request('GET', '/platform/v1/auth/tokens', { token: t.agentToken });
      assert.equal(list.status, 200);
      assert.equal(list.body.data.find((x: any) => x.id === made.body.id).status, 'expired');
    });
  }

  it('a token without expires_in_days (or with null) never expires and has no timer', async () => {
    const t = await platformTenant(api, { now: T0 });
    for (const body of [{}, { expires_in_days: null }]) {
      const made = await api.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'forever', workspace_id: t.workspaceId, environment: 'live', ...body } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.expires_at, null);
      const { rows } = await api.deps.db.query(`SELECT 1 FROM workflow_starts WHERE workflow_id = $1`, [platformTokenExpiryWorkflowId(made.body.id)]);
      assert.equal(rows.length, 0);
      await assert.rejects(api.deps.temporal.workflow.getHandle(platformTokenExpiryWorkflowId(made.body.id)).describe(), 'no timer either');
      now = new Date(T0.getTime() + 10 * 365 * DAY);
      assert.equal((await api.request('GET', '/platform/v1/auth/tokens', { token: made.body.token })).status, 200);
      now = T0;
    }
  });

  it('expires_in_days other than 30, 60 or 90 is a 400 and makes nothing', async () => {
    const t = await platformTenant(api, { now: T0 });
    for (const expires_in_days of [0, 1, 29, 31, 45, 89, 91, 365, -30, 30.5, '30', true]) {
      const res = await api.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'bad', workspace_id: t.workspaceId, environment: 'test', expires_in_days } });
      assertPlatformError(res, 400, 'validation_failed');
    }
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_tokens WHERE organization_id = $1`, [t.organizationId]);
    assert.equal(rows[0].n, 2, 'only the tenant’s own two tokens');
  });
});

describe('Idempotency-Key on POST /auth/tokens', () => {
  const post = (token: string, key: string, body: unknown) => api.request('POST', '/platform/v1/auth/tokens', { token, body, headers: { 'idempotency-key': key } });

  it('the same key and body replay the same token and secret (stored sealed); another body is a 409', async () => {
    const t = await platformTenant(api, { now: T0 });
    const key = `tok-replay-${Date.now()}`;
    const body = { name: 'ci', workspace_id: t.workspaceId, environment: 'test', expires_in_days: 60 };
    const first = await post(t.agentToken, key, body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await post(t.agentToken, key, body);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.headers.get('cache-control'), 'no-store');
    assert.deepEqual(again.body, first.body);

    const scope = `platform-token:${await tokenIdOf(t.agentToken)}`;
    const stored = (await api.deps.db.query(`SELECT response::text AS r, resource_id FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`, [scope, key])).rows[0];
    assert.ok(stored.r.includes('$sealed'), 'sealed with the secret box');
    assert.ok(!stored.r.includes(first.body.token), 'never the secret in the clear');
    assert.equal(stored.resource_id, first.body.id);
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_tokens WHERE organization_id = $1 AND name = 'ci'`, [t.organizationId]);
    assert.equal(rows[0].n, 1, 'one token for the key');

    const other = await post(t.agentToken, key, { ...body, name: 'another' });
    assertPlatformError(other, 409, 'idempotency_key_reused');
    // keys are the token's own: another token's same key is a new request
    const mine = await post(t.adminToken, key, body);
    assert.equal(mine.status, 201);
    assert.notEqual(mine.body.id, first.body.id);
  });

  it('a first attempt that committed but never stored its answer: the retry after the lease makes one usable token', async () => {
    const t = await platformTenant(api, { now: T0 });
    const key = `tok-lease-${Date.now()}`;
    const body = { name: 'lease', workspace_id: t.workspaceId, environment: 'test', expires_in_days: 30 };
    const first = await post(t.agentToken, key, body);
    assert.equal(first.status, 201);
    const scope = `platform-token:${await tokenIdOf(t.agentToken)}`;
    // the state a request leaves when it dies between its commit and storing its answer
    await api.deps.db.query(
      `UPDATE idempotency_keys SET status_code = NULL, response = NULL, locked_until = now() - interval '1 second' WHERE api_key_id = $1 AND key = $2`,
      [scope, key],
    );
    const retry = await post(t.agentToken, key, body);
    assert.equal(retry.status, 201, JSON.stringify(retry.body));
    assert.notEqual(retry.body.id, first.body.id, 'the first secret cannot be shown again (only its hash is kept)');
    const rows = (await api.deps.db.query(`SELECT id, revoked_at FROM platform_tokens WHERE organization_id = $1 AND name = 'lease' ORDER BY created_at, id`, [t.organizationId])).rows;
    assert.equal(rows.length, 2);
    assert.ok(rows.find((r) => r.id === first.body.id).revoked_at, 'the unanswered token is revoked');
    assert.equal(rows.find((r) => r.id === retry.body.id).revoked_at, null);
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: first.body.token }), 401, 'unauthorized');
    assert.equal((await api.request('GET', '/platform/v1/auth/tokens', { token: retry.body.token })).status, 200);
    // from now on a plain replay of the retry's answer
    const again = await post(t.agentToken, key, body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, retry.body.id);
  });

  it('a key still held by a running request is a 409 and makes nothing', async () => {
    const t = await platformTenant(api, { now: T0 });
    const key = `tok-live-${Date.now()}`;
    const scope = `platform-token:${await tokenIdOf(t.agentToken)}`;
    const body = { name: 'held', workspace_id: t.workspaceId, environment: 'test' };
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(`POST /platform/v1/auth/tokens\n${JSON.stringify(body)}`).digest('hex');
    await api.deps.db.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, locked_until, lease_token) VALUES ($1, $2, $3, now() + interval '15 seconds', 'alive')`,
      [scope, key, hash],
    );
    const res = await post(t.agentToken, key, body);
    assertPlatformError(res, 409, 'idempotency_request_in_progress');
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_tokens WHERE organization_id = $1 AND name = 'held'`, [t.organizationId]);
    assert.equal(rows[0].n, 0);
  });
});
