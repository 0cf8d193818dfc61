// The soft delete's window on the request path (POST /tickets/{id}/restore reads the one
// injectable clock, AppDeps.clock): 410 gone at purge_at exactly, restored a millisecond
// before it and at 29 d 23 h. The durable timer that purges the row at purge_at is proven
// on the time-skipping server (test/workflows/platform-ticket-workflow.test.ts).
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import { newId } from '../../lib/ids';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';

const HOUR = 3_600_000;
let now: Date | null = null;
let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi({}, { clock: () => now ?? new Date() });
});
afterAll(() => api?.stop());

test('restore: taken at 29 d 23 h and 1 ms before purge_at, 410 gone at purge_at', async () => {
  const t = await platformTenant(api);
  // a manager's token (managers and admins restore)
  const manager = await api.deps.db.transaction(async (m) => {
    const user = await insertPlatformUser(m, { id: newId('usr'), organizationId: t.organizationId, email: `mgr-${newId('usr').slice(-8)}@clock.example`, name: 'M', role: 'manager', isOrgAdmin: false, status: 'active', createdAt: new Date() });
    await addPlatformMembership(m, t.workspaceId, user.id);
    return (await issuePlatformToken(m, { organizationId: t.organizationId, workspaceId: t.workspaceId, userId: user.id, name: 'm', environment: 'test', now: new Date() })).secret;
  });
  const deleted = async () => {
    const made = await api.request('POST', '/platform/v1/tickets', { token: manager, body: { subject: 'x', channel_id: t.channelIds.web, contact_email: 'a@b.example' } });
    assert.equal(made.status, 201);
    assert.equal((await api.request('DELETE', `/platform/v1/tickets/${made.body.id}`, { token: manager })).status, 204);
    const { rows } = await api.deps.db.query(`SELECT purge_at FROM platform_tickets WHERE id = $1`, [made.body.id]);
    return { id: made.body.id as string, purgeAt: (rows[0].purge_at as Date).getTime() };
  };
  const restore = (id: string) => api.request('POST', `/platform/v1/tickets/${id}/restore`, { token: manager });

  const a = await deleted();
  now = new Date(a.purgeAt - HOUR);
  const early = await restore(a.id);
  assert.equal(early.status, 200, JSON.stringify(early.body));
  assert.equal(early.body.status, 'open');

  const b = await deleted();
  now = new Date(b.purgeAt);
  assertPlatformError(await restore(b.id), 410, 'gone');
  now = new Date(b.purgeAt - 1);
  assert.equal((await restore(b.id)).status, 200);
  now = null;
});
