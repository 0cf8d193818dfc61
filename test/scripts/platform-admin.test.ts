// `npm run admin -- bootstrap` and `create-tenant`, run as the child processes an operator
// runs, against the test database: bootstrap's `platform` block (an organisation admin's and
// an agent's `service_test_` tokens in one workspace) works over HTTP and is the same on the
// next run, its secrets stored sealed; create-tenant makes a new customer of all three APIs
// on every call, in bootstrap's shape, and two of them never see each other's tokens.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { demoCredentialsText } from '../../scripts/demo-credentials';
import { startApi, type TestApi } from '../support/api';
import { GENEROUS_PLATFORM_LIMITS, assertPlatformError } from '../support/platform';
import { apiKeyHeader, bearer, GENEROUS_PUSH_LIMITS } from '../support/push';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
let api: TestApi;
let dir: string;

async function admin(...args: string[]): Promise<any> {
  const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DEMO_CREDENTIALS_FILE: join(dir, 'demo-credentials.json') },
  });
  return JSON.parse(stdout);
}

/** The exit code and stderr of a refused command. */
async function refused(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await admin(...args);
  } catch (err: any) {
    return { code: err.code, stderr: err.stderr };
  }
  return assert.fail(`admin ${args.join(' ')} succeeded`);
}

beforeAll(async () => {
  api = await startApi({ RATE_LIMITS: `auth-failures=100000,${GENEROUS_PLATFORM_LIMITS},${GENEROUS_PUSH_LIMITS}` });
  dir = await mkdtemp(join(tmpdir(), 'platform-admin-'));
});
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

const tokens = async (secret: string) => {
  const res = await api.request('GET', '/platform/v1/auth/tokens?per_page=100', { token: secret });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
};

/** The platform block works: the admin is an organisation admin of the tenant, the agent an agent in its workspace. */
async function assertPlatformWorks(p: any) {
  assert.deepEqual(Object.keys(p).sort(), ['adminToken', 'agentToken', 'organizationId', 'workspaceId']);
  assert.match(p.adminToken, /^service_test_/);
  assert.match(p.agentToken, /^service_test_/);
  const { rows } = await api.deps.db.query(
    `SELECT u.role, u.is_org_admin AS "isOrgAdmin", t.workspace_id AS "workspaceId", t.organization_id AS "organizationId", t.id
       FROM platform_tokens t JOIN platform_users u ON u.id = t.user_id WHERE t.id = ANY($1)`,
    [[...(await tokens(p.adminToken)), ...(await tokens(p.agentToken))].map((x) => x.id)],
  );
  const roles = rows.map((r) => `${r.role}${r.isOrgAdmin ? '+org' : ''}`).sort();
  assert.deepEqual([...new Set(roles)], ['admin+org', 'agent']);
  for (const r of rows) {
    assert.equal(r.organizationId, p.organizationId);
    assert.equal(r.workspaceId, p.workspaceId);
  }
  // the organisation admin sees both tokens, the agent their own
  assert.ok((await tokens(p.adminToken)).length >= 2);
  assert.equal((await tokens(p.agentToken)).filter((t) => t.status === 'active').length, 1);
  // and may make another in the workspace
  const made = await api.request('POST', '/platform/v1/auth/tokens', { token: p.adminToken, body: { name: 'ci', workspace_id: p.workspaceId, environment: 'live' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal((await api.request('DELETE', `/platform/v1/auth/tokens/${made.body.id}`, { token: p.adminToken })).status, 204);
}

describe('bootstrap: platform', () => {
  it('prints working organisation-admin and agent test tokens, the same on the next run, stored sealed; a revoked one is replaced', async () => {
    const first = await admin('bootstrap');
    assert.deepEqual(Object.keys(first).sort(), ['platform', 'push', 'ticketing']);
    await assertPlatformWorks(first.platform);

    const file = join(dir, 'platform-demo-credentials.json');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes(first.platform.adminToken) && !text.includes(first.platform.agentToken), 'sealed, never in the clear');

    const second = await admin('bootstrap');
    assert.deepEqual(second.platform, first.platform);
    assert.deepEqual(second.ticketing, first.ticketing);

    // the agent's token revoked: the next run prints a new one for the same tenant
    const agentTokenId = (await tokens(first.platform.agentToken))[0].id;
    assert.equal((await api.request('DELETE', `/platform/v1/auth/tokens/${agentTokenId}`, { token: first.platform.adminToken })).status, 204);
    const third = await admin('bootstrap');
    assert.equal(third.platform.organizationId, first.platform.organizationId);
    assert.equal(third.platform.workspaceId, first.platform.workspaceId);
    assert.equal(third.platform.adminToken, first.platform.adminToken);
    assert.notEqual(third.platform.agentToken, first.platform.agentToken);
    await assertPlatformWorks(third.platform);
    assert.deepEqual((await admin('bootstrap')).platform, third.platform);

    // npm start in production prints none of the platform tokens
    const prod = demoCredentialsText(JSON.stringify(third), true);
    assert.ok(!prod.includes(third.platform.adminToken) && !prod.includes(third.platform.agentToken));
    assert.ok(prod.includes(third.platform.organizationId));
  });
});

describe('create-tenant', () => {
  it('makes a new customer of all three APIs on every call, in bootstrap’s shape, each credential working', async () => {
    const boot = await admin('bootstrap');
    const a = await admin('create-tenant', '--name', 'Alpha Games');
    const b = await admin('create-tenant', '--name=Alpha Games');
    for (const x of [a, b]) {
      assert.deepEqual(Object.keys(x).sort(), ['platform', 'push', 'ticketing']);
      assert.deepEqual(Object.keys(x.ticketing).sort(), Object.keys(boot.ticketing).sort());
      assert.deepEqual(Object.keys(x.push).sort(), ['apiKey', 'appId', 'email', 'password']);
    }
    for (const k of ['platform', 'ticketing', 'push'] as const) {
      for (const field of Object.keys(a[k])) assert.notEqual(a[k][field], b[k][field], `${k}.${field} differs between tenants`);
      for (const field of Object.keys(a[k])) if (field in boot[k]) assert.notEqual(a[k][field], boot[k][field], `${k}.${field} is not the demo's`);
    }
    const { rows } = await api.deps.db.query(`SELECT name FROM platform_organizations WHERE id = $1`, [a.platform.organizationId]);
    assert.equal(rows[0].name, 'Alpha Games');

    for (const x of [a, b]) {
      await assertPlatformWorks(x.platform);
      // ticketing: an admin key of a new /v1 organization, reaching its sandbox workspace
      const me = await api.request('GET', '/v1/auth/me', { token: x.ticketing.apiKey });
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.deepEqual(me.body.scopes, ['admin:all']);
      assert.equal((await api.request('GET', `/v1/tickets?workspaceId=${x.ticketing.workspaceId}`, { token: x.ticketing.apiKey })).status, 200);
      // push: the owner signs in and sees their one app; the app key reads it
      const login = await api.request('POST', '/api/v1/auth/login', { body: { email: x.push.email, password: x.push.password } });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const apps = await api.request('GET', '/api/v1/apps', { headers: bearer(login.body.accessToken) });
      assert.deepEqual(apps.body.map((app: any) => app.id), [x.push.appId]);
      assert.equal((await api.request('GET', `/api/v1/apps/${x.push.appId}`, { headers: apiKeyHeader(x.push.apiKey) })).status, 200);
    }
    // the ticketing keys do not cross organizations
    assert.notEqual((await api.request('GET', `/v1/tickets?workspaceId=${b.ticketing.workspaceId}`, { token: a.ticketing.apiKey })).status, 200);
  });

  it("two tenants never see each other's platform tokens: not listed, DELETE by id a 404, not even with a filter", async () => {
    const a = (await admin('create-tenant', '--name', 'Tenant A')).platform;
    const b = (await admin('create-tenant', '--name', 'Tenant B')).platform;
    const orgOf = async (ids: string[]) =>
      (await api.deps.db.query(`SELECT DISTINCT organization_id AS o FROM platform_tokens WHERE id = ANY($1)`, [ids])).rows.map((r) => r.o);
    const aIds = (await tokens(a.adminToken)).map((t) => t.id);
    const bIds = (await tokens(b.adminToken)).map((t) => t.id);
    assert.deepEqual(await orgOf(aIds), [a.organizationId]);
    assert.deepEqual(await orgOf(bIds), [b.organizationId]);
    for (const [mine, theirs] of [[a, bIds], [b, aIds]] as const) {
      for (const id of theirs) {
        assertPlatformError(await api.request('DELETE', `/platform/v1/auth/tokens/${id}`, { token: mine.adminToken }), 404, 'not_found');
        assertPlatformError(await api.request('DELETE', `/platform/v1/auth/tokens/${id}`, { token: mine.agentToken }), 404, 'not_found');
      }
    }
    const other = await api.request('GET', `/platform/v1/auth/tokens?workspace_id=${b.workspaceId}`, { token: a.adminToken });
    assert.equal(other.status, 200);
    assert.deepEqual(other.body.data, []);
    assertPlatformError(
      await api.request('POST', '/platform/v1/auth/tokens', { token: a.adminToken, body: { name: 'x', workspace_id: b.workspaceId, environment: 'test' } }),
      404,
      'not_found',
    );
    assert.equal((await tokens(b.agentToken)).length, 1, "b's tokens all still work");
  });

  it('refuses a missing or blank name (exit 2, nothing made)', async () => {
    for (const args of [[], ['--name'], ['--name', '   '], ['--nom', 'x']]) {
      const r = await refused('create-tenant', ...args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /create-tenant/);
    }
    const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM platform_organizations WHERE trim(name) IN ('', 'x')`);
    assert.equal(rows[0].n, 0);
  });
});
