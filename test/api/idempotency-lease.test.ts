// An Idempotency-Key whose first request died (a crash, an outage) is not
// "in progress" forever. Its lease lapses; a retry with the same key then replays what
// the first attempt created, or creates it exactly once.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startApi, type TestApi } from '../support/api';
import { assertError, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
beforeAll(async () => {
  api = await startApi();
  t = await tenantWithPlayer(api);
});
afterAll(() => api?.stop());

const bodyOf = (title: string) => JSON.stringify({ workspaceId: t.workspace.id, playerId: t.player.playerId, title, body: 'x' });
const create = (key: string, title: string) =>
  api.request('POST', '/v1/tickets', { token: t.token, rawBody: bodyOf(title), headers: { 'idempotency-key': key } });
const ticketsTitled = async (title: string) =>
  (await api.deps.db.query('SELECT id FROM tickets WHERE workspace_id = $1 AND title = $2', [t.workspace.id, title])).rows.map((r) => r.id);
const scope = () => t.key.id;

test('the ticket was committed but the answer was never stored: a retry after the lease replays that ticket', async () => {
  const key = `lease-created-${Date.now()}`;
  const first = await create(key, key);
  assert.equal(first.status, 201);
  // the state a request leaves when it dies between its commit and storing its answer
  await api.deps.db.query(
    `UPDATE idempotency_keys SET status_code = NULL, response = NULL, locked_until = now() - interval '1 second'
      WHERE api_key_id = $1 AND key = $2`,
    [scope(), key],
  );
  const retry = await create(key, key);
  assert.equal(retry.status, 201, JSON.stringify(retry.body));
  assert.equal(retry.body.id, first.body.id);
  assert.deepEqual(await ticketsTitled(key), [first.body.id]);
  // and from now on it is a plain replay
  const again = await create(key, key);
  assert.equal(again.body.id, first.body.id);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
});

test('the first request died before creating anything: a retry after the lease creates the ticket once', async () => {
  const key = `lease-nothing-${Date.now()}`;
  const hash = createHash('sha256').update(`POST /v1/tickets\n${bodyOf(key)}`).digest('hex');
  await api.deps.db.query(
    `INSERT INTO idempotency_keys (api_key_id, key, request_hash, locked_until, lease_token)
     VALUES ($1, $2, $3, now() - interval '1 second', 'dead')`,
    [scope(), key, hash],
  );
  const [a, b] = await Promise.all([create(key, key), create(key, key)]);
  const statuses = [a.status, b.status].sort();
  // two retries at once: one takes the key over, the other is told it is in progress
  assert.ok(statuses[0] === 201, JSON.stringify([a.body, b.body]));
  assert.equal((await ticketsTitled(key)).length, 1);
});

test('a key whose request is still running: 409 in progress with Retry-After', async () => {
  const key = `lease-live-${Date.now()}`;
  const hash = createHash('sha256').update(`POST /v1/tickets\n${bodyOf(key)}`).digest('hex');
  await api.deps.db.query(
    `INSERT INTO idempotency_keys (api_key_id, key, request_hash, locked_until, lease_token)
     VALUES ($1, $2, $3, now() + interval '15 seconds', 'alive')`,
    [scope(), key, hash],
  );
  const res = await create(key, key);
  assertError(res, 409, 'idempotency_request_in_progress');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 15, String(retryAfter));
  assert.equal((await ticketsTitled(key)).length, 0);
});

test('the key records the ticket it created (written in the create transaction)', async () => {
  const key = `lease-release-${Date.now()}`;
  const first = await create(key, key);
  assert.equal(first.status, 201);
  const row = (await api.deps.db.query('SELECT resource_id, status_code FROM idempotency_keys WHERE api_key_id = $1 AND key = $2', [scope(), key])).rows[0];
  assert.equal(row.resource_id, first.body.id);
  assert.equal(row.status_code, 201);
});
