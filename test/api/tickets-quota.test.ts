// The monthly ticket quota is checked and taken atomically: at the limit, of two creates
// at the same moment exactly one gets its ticket, over HTTP with the real workflow and
// at the repository level with two real transactions.
import assert from 'node:assert/strict';
import { countTicketWithinQuota, ticketsCreatedIn } from '../../db/repositories/ticket-usage';
import { usageMonth } from '../../domain/tickets/quota.rules';
import { startApi, type TestApi } from '../support/api';
import { createOrganization, setTicketUsage } from '../support/factories';
import { tenantWithPlayer } from '../support/tickets';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const setUsage = (organizationId: string, count: number) => setTicketUsage(api.deps.db, organizationId, usageMonth(new Date()), count);

test('two concurrent creates for the last ticket of the month: exactly one is created', async () => {
  const t = await tenantWithPlayer(api, { plan: 'starter' });
  await setUsage(t.org.id, 4_999); // starter: 5,000 a month
  const create = (title: string) =>
    api.request('POST', '/v1/tickets', {
      token: t.token,
      body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title, body: 'the last one' },
    });
  const results = await Promise.all([create('first'), create('second')]);
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 429], JSON.stringify(results.map((r) => r.body)));
  const refused = results.find((r) => r.status === 429)!;
  assert.equal(refused.body.error.code, 'ticket_quota_exceeded');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  const stored = await api.deps.db.query('SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1', [t.workspace.id]);
  assert.equal(stored.rows[0].n, 1, 'the refused ticket left no row');
  assert.equal(await ticketsCreatedIn(api.deps.db, t.org.id, usageMonth(new Date())), 5_000);
});

test('countTicketWithinQuota: two transactions at the limit, one counts', async () => {
  const org = await createOrganization(api.deps.db, 'starter');
  const month = '2031-01';
  await setTicketUsage(api.deps.db, org.id, month, 9);
  // The first counts the month's last ticket and holds its transaction open; the second
  // then waits on its row lock and, once the first commits, finds the month full.
  let counted!: () => void;
  const firstCounted = new Promise<void>((r) => (counted = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = api.deps.db.transaction(async (m) => {
    const result = await countTicketWithinQuota(m, org.id, month, 10);
    counted();
    await held;
    return result;
  });
  await firstCounted;
  const second = api.deps.db.transaction((m) => countTicketWithinQuota(m, org.id, month, 10));
  await new Promise((r) => setTimeout(r, 100));
  release();
  assert.deepEqual(await Promise.all([first, second]), [true, false]);
  assert.equal(await ticketsCreatedIn(api.deps.db, org.id, month), 10);
  // no limit (scale) always counts
  assert.equal(await api.deps.db.transaction((m) => countTicketWithinQuota(m, org.id, month, null)), true);
});
