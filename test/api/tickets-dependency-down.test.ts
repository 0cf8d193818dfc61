// "The row if the caller may see it, else 404" (api/kit/visible-row.ts) lets every other
// failure through: PostgreSQL failing during the access check of GET /v1/tickets/{id}
// (after the ticket itself was read) is a 503 with Retry-After, never a 404 that would tell
// the client the ticket is gone. The outage is PostgreSQL refusing the workspace lookup
// (the access check's query) on the app's own connection pool; every other query runs.
import assert from 'node:assert/strict';
import { Workspace } from '../../db/entities';
import { startApi, assertError, type TestApi } from '../support/api';
import { capturedLogger } from '../support/captured-log';
import { insertManyTickets, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';

let api: TestApi;
let t: TenantWithPlayer;
let ticketId: string;
// the app's log, read back: each outage is logged as one (and kept out of the test output)
const log = capturedLogger();

beforeAll(async () => {
  api = await startApi({}, { logger: log.logger });
  t = await tenantWithPlayer(api);
  // straight into the table: no request may have looked the workspace up (and cached it) yet
  await insertManyTickets(api.deps.db, { workspaceId: t.workspace.id, playerRef: t.player.id, playerId: t.player.playerId }, 1, () => 'b');
  ticketId = `tkt_bulk_${t.workspace.id}_1`;
});
afterAll(() => api?.stop());

/** Runs `fn` while PostgreSQL answers the workspace lookup as a lost connection. */
async function withWorkspaceLookupDown<T>(fn: () => Promise<T>): Promise<T> {
  const manager = api.deps.db.manager;
  const findOne = manager.findOne;
  manager.findOne = function (this: unknown, entity: unknown, ...rest: unknown[]) {
    if (entity === Workspace) return Promise.reject(new Error('Connection terminated unexpectedly'));
    return (findOne as (...a: unknown[]) => Promise<unknown>).call(this, entity, ...rest);
  } as typeof findOne;
  try {
    return await fn();
  } finally {
    manager.findOne = findOne;
  }
}

function assertUnavailable(res: { status: number; headers: Headers; body: any }): void {
  assertError(res, 503, 'service_unavailable');
  assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
  const logged = log.lines().find((l) => l.requestId === res.body.error.requestId);
  assert.equal(logged?.msg, 'dependency unavailable', 'the outage is logged under the request id');
}

test('GET /v1/tickets/{id} with the access check failing is 503 with Retry-After, not 404', async () => {
  const res = await withWorkspaceLookupDown(() => api.request('GET', `/v1/tickets/${ticketId}`, { token: t.token }));
  assertUnavailable(res);
});

test('the same for a player and an agent by id', async () => {
  await withWorkspaceLookupDown(async () => {
    assertUnavailable(await api.request('GET', `/v1/players/${t.player.id}`, { token: t.token }));
    assertUnavailable(await api.request('GET', `/v1/agents/${t.agent.id}`, { token: t.token }));
  });
});

test('with PostgreSQL back, the same requests answer 200', async () => {
  const res = await api.request('GET', `/v1/tickets/${ticketId}`, { token: t.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.id, ticketId);
  assert.equal((await api.request('GET', `/v1/players/${t.player.id}`, { token: t.token })).status, 200);
});
