// Who lists and revokes which platform tokens, over HTTP: everyone lists and revokes their
// own; an admin also every token of the workspace they reach (their token's), an
// organisation admin every token of the organisation; anything else is a 404, and another
// organisation's token always is. A user's live and test tokens both work and the list
// shows each one's environment. revokeUserTokens (a deactivation) refuses every token of a
// user at once.
import assert from 'node:assert/strict';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { createPlatformWorkspace } from '../../domain/platform/create-workspace';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import { revokeUserTokens } from '../../domain/platform/revoke-user-tokens';
import type { PlatformEnvironment, PlatformRole } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import { platformTokens } from '../../api/platform/auth/token-cache';
import type { TestApi } from '../support/api';
import { assertPlatformError, platformTenant, startPlatformApi } from '../support/platform';
import type { PlatformTenant } from '../../domain/platform/create-tenant';

let api: TestApi;
beforeAll(async () => {
  api = await startPlatformApi();
});
afterAll(() => api?.stop());

let users = 0;
/** A user of the tenant's organisation with `role`, a member of `workspaceId`, and a token there. */
async function member(t: PlatformTenant, role: PlatformRole, workspaceId = t.workspaceId, environment: PlatformEnvironment = 'test') {
  users += 1;
  const now = new Date();
  const user = await insertPlatformUser(api.deps.db, {
    id: newId('usr'),
    organizationId: t.organizationId,
    email: `${role}-${process.pid}-${users}@perm.example`,
    name: `${role} ${users}`,
    role,
    isOrgAdmin: false,
    status: 'active',
    createdAt: now,
  });
  await addPlatformMembership(api.deps.db, workspaceId, user.id);
  const { token, secret } = await issuePlatformToken(api.deps.db, { organizationId: t.organizationId, workspaceId, userId: user.id, name: `${role} token`, environment, now });
  return { userId: user.id, tokenId: token.id, secret };
}

const list = async (secret: string, query = '') => {
  const res = await api.request('GET', `/platform/v1/auth/tokens?per_page=100${query}`, { token: secret });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const ids = async (secret: string, query = '') => ((await list(secret, query)).data as any[]).map((x) => x.id).sort();
const revoke = (secret: string, id: string) => api.request('DELETE', `/platform/v1/auth/tokens/${id}`, { token: secret });

/** A tenant with a second workspace; an admin, a manager and two agents in the first, an agent and an admin in the second. */
async function organisation() {
  const t = await platformTenant(api);
  const { workspace: ws2 } = await createPlatformWorkspace(api.deps.db, { organizationId: t.organizationId, name: 'Second', now: new Date() });
  const tokenIdsOf = async (userId: string) =>
    (await api.deps.db.query(`SELECT id FROM platform_tokens WHERE user_id = $1`, [userId])).rows.map((r) => r.id as string);
  const [orgAdminTokenId] = await tokenIdsOf(t.adminUserId);
  const [agentTokenId] = await tokenIdsOf(t.agentUserId);
  return {
    t,
    ws2: ws2.id,
    orgAdmin: { userId: t.adminUserId, tokenId: orgAdminTokenId, secret: t.adminToken },
    agent: { userId: t.agentUserId, tokenId: agentTokenId, secret: t.agentToken },
    agent2: await member(t, 'agent'),
    manager: await member(t, 'manager'),
    admin: await member(t, 'admin'),
    agentWs2: await member(t, 'agent', ws2.id),
    adminWs2: await member(t, 'admin', ws2.id),
  };
}

describe('listing', () => {
  it('an agent and a manager list only their own tokens; an admin every token of their workspace; an organisation admin every token of the organisation', async () => {
    const o = await organisation();
    const ws1 = [o.orgAdmin, o.agent, o.agent2, o.manager, o.admin].map((u) => u.tokenId);
    const ws2 = [o.agentWs2, o.adminWs2].map((u) => u.tokenId);

    assert.deepEqual(await ids(o.agent.secret), [o.agent.tokenId]);
    assert.deepEqual(await ids(o.agent2.secret), [o.agent2.tokenId]);
    assert.deepEqual(await ids(o.manager.secret), [o.manager.tokenId]);
    assert.deepEqual(await ids(o.admin.secret), [...ws1].sort());
    assert.deepEqual(await ids(o.adminWs2.secret), [...ws2].sort());
    assert.deepEqual(await ids(o.orgAdmin.secret), [...ws1, ...ws2].sort());
    const page = await list(o.orgAdmin.secret);
    assert.equal(page.total, 7);

    // the workspace_id filter narrows what is in reach, never widens it
    assert.deepEqual(await ids(o.orgAdmin.secret, `&workspace_id=${o.ws2}`), [...ws2].sort());
    assert.deepEqual(await ids(o.admin.secret, `&workspace_id=${o.ws2}`), []);
    assert.deepEqual(await ids(o.agent.secret, `&workspace_id=${o.ws2}`), []);
  });

  it("a user's own tokens in another workspace are theirs to list and revoke", async () => {
    const o = await organisation();
    await addPlatformMembership(api.deps.db, o.ws2, o.agent.userId);
    // a token creates tokens in its own workspace only (a workspace-scoped token reaches no other)
    assertPlatformError(
      await api.request('POST', '/platform/v1/auth/tokens', { token: o.agent.secret, body: { name: 'ws2', workspace_id: o.ws2, environment: 'test' } }),
      404,
      'not_found',
    );
    const { token } = await issuePlatformToken(api.deps.db, { organizationId: o.t.organizationId, workspaceId: o.ws2, userId: o.agent.userId, name: 'ws2', environment: 'test', now: new Date() });
    const made = { body: { id: token.id } };
    assert.deepEqual(await ids(o.agent.secret), [o.agent.tokenId, made.body.id].sort());
    assert.ok(!(await ids(o.admin.secret)).includes(made.body.id), 'not in the first workspace’s admin’s reach');
    assert.ok((await ids(o.adminWs2.secret)).includes(made.body.id));
    assert.equal((await revoke(o.agent.secret, made.body.id)).status, 204);
  });

  it('a token of another organisation is never listed, whatever the filter', async () => {
    const a = await organisation();
    const b = await platformTenant(api);
    const theirs = await ids(b.adminToken);
    assert.equal(theirs.length, 2);
    for (const id of theirs) assert.ok(!(await ids(a.orgAdmin.secret)).includes(id));
    assert.deepEqual(await ids(a.orgAdmin.secret, `&workspace_id=${b.workspaceId}`), []);
  });
});

describe('revoking', () => {
  it('own: yes; an agent or a manager revoking someone else’s: 404 (and the token still works)', async () => {
    const o = await organisation();
    for (const who of [o.agent, o.manager]) {
      for (const target of [o.agent2, o.orgAdmin, o.admin]) {
        assertPlatformError(await revoke(who.secret, target.tokenId), 404, 'not_found');
      }
    }
    assert.equal((await list(o.agent2.secret)).data.length, 1, 'still works');
    assert.equal((await revoke(o.agent2.secret, o.agent2.tokenId)).status, 204);
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: o.agent2.secret }), 401, 'unauthorized');
    // a second revocation of the same token answers as the first (by an admin who still sees it)
    assert.equal((await revoke(o.admin.secret, o.agent2.tokenId)).status, 204);
  });

  it("an admin revokes any token of their workspace, not another workspace's (404); an organisation admin any of the organisation", async () => {
    const o = await organisation();
    assert.equal((await revoke(o.admin.secret, o.agent.tokenId)).status, 204);
    assert.equal((await revoke(o.admin.secret, o.manager.tokenId)).status, 204);
    assertPlatformError(await revoke(o.admin.secret, o.agentWs2.tokenId), 404, 'not_found');
    assertPlatformError(await revoke(o.adminWs2.secret, o.agent2.tokenId), 404, 'not_found');
    assert.equal((await list(o.agentWs2.secret)).data.length, 1, 'untouched');
    assert.equal((await revoke(o.orgAdmin.secret, o.agentWs2.tokenId)).status, 204);
    assert.equal((await revoke(o.orgAdmin.secret, o.admin.tokenId)).status, 204);
    for (const s of [o.agent.secret, o.manager.secret, o.agentWs2.secret, o.admin.secret]) {
      assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: s }), 401, 'unauthorized');
    }
    const statuses = Object.fromEntries(((await list(o.orgAdmin.secret)).data as any[]).map((x) => [x.id, x.status]));
    assert.equal(statuses[o.agent.tokenId], 'revoked');
    assert.equal(statuses[o.agent2.tokenId], 'active');
  });

  it('a token of another organisation is a 404 for everyone, organisation admins included; an unknown id too', async () => {
    const a = await organisation();
    const b = await organisation();
    for (const who of [a.orgAdmin, a.admin, a.agent]) {
      for (const target of [b.orgAdmin, b.agent, b.admin, b.agentWs2]) assertPlatformError(await revoke(who.secret, target.tokenId), 404, 'not_found');
    }
    assertPlatformError(await revoke(a.orgAdmin.secret, 'tok_00000000000000000000000000'), 404, 'not_found');
    assertPlatformError(await revoke(a.orgAdmin.secret, 'not an id at all'), 404, 'not_found');
    assert.equal((await list(b.agent.secret)).data.length, 1, "b's tokens untouched");
  });
});

describe('environments', () => {
  it("a user's service_test_ and service_live_ tokens both work, and the list shows each one's environment and prefix", async () => {
    const t = await platformTenant(api);
    const live = await api.request('POST', '/platform/v1/auth/tokens', { token: t.agentToken, body: { name: 'prod', workspace_id: t.workspaceId, environment: 'live' } });
    assert.equal(live.status, 201);
    assert.match(live.body.token, /^service_live_/);
    assert.match(t.agentToken, /^service_test_/);
    for (const s of [live.body.token, t.agentToken]) {
      const page = await list(s);
      const byId = Object.fromEntries((page.data as any[]).map((x) => [x.id, x]));
      assert.equal(byId[live.body.id].environment, 'live');
      assert.ok(byId[live.body.id].prefix.startsWith('service_live_'));
      assert.ok(live.body.token.startsWith(byId[live.body.id].prefix));
      const test = (page.data as any[]).find((x) => x.id !== live.body.id);
      assert.equal(test.environment, 'test');
      assert.ok(test.prefix.startsWith('service_test_'));
    }
  });

  it('a live token presented with the test prefix (or the reverse) is a 401', async () => {
    const t = await platformTenant(api);
    const swapped = t.agentToken.replace(/^service_test_/, 'service_live_');
    assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: swapped }), 401, 'unauthorized');
  });
});

describe('revokeUserTokens (a deactivation)', () => {
  it("refuses every token of the user from the next request on, marks the rows, leaves others' alone, and a second call finds nothing", async () => {
    const o = await organisation();
    const second = await issuePlatformToken(api.deps.db, { organizationId: o.t.organizationId, workspaceId: o.t.workspaceId, userId: o.agent.userId, name: 'second', environment: 'live', now: new Date() });
    // both tokens are in this process's cache before the revocation
    assert.equal((await list(o.agent.secret)).data.length, 2);
    assert.equal((await list(second.secret)).data.length, 2);

    const at = new Date();
    const revoked = await api.deps.db.transaction((m) => revokeUserTokens(m, o.agent.userId, (ids) => platformTokens(api.deps).revoke(ids), at));
    assert.deepEqual(revoked, [o.agent.tokenId, second.token.id].sort());
    for (const s of [o.agent.secret, second.secret]) assertPlatformError(await api.request('GET', '/platform/v1/auth/tokens', { token: s }), 401, 'unauthorized');
    const { rows } = await api.deps.db.query(`SELECT revoked_at FROM platform_tokens WHERE user_id = $1`, [o.agent.userId]);
    assert.equal(rows.length, 2);
    for (const r of rows) assert.equal(r.revoked_at.getTime(), at.getTime());
    assert.equal((await list(o.agent2.secret)).data.length, 1, "another user's token still works");
    assert.deepEqual(await revokeUserTokens(api.deps.db, o.agent.userId, async () => assert.fail('nothing left to mark'), new Date()), []);
  });
});
