import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startApi, type TestApi } from '../support/api';
import { requestToken } from '../support/auth-factories';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');

describe('npm run admin -- bootstrap', () => {
  let api: TestApi;
  let dir: string;
  const bootstrap = async () => {
    const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', 'bootstrap'], {
      cwd: ROOT,
      env: { ...process.env, DEMO_CREDENTIALS_FILE: join(dir, 'demo-credentials.json') },
    });
    return JSON.parse(stdout).ticketing;
  };

  beforeAll(async () => {
    api = await startApi();
    dir = await mkdtemp(join(tmpdir(), 'bootstrap-'));
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints one JSON object with a working sandbox admin key, the same on every run', async () => {
    const first = await bootstrap();
    assert.deepEqual(Object.keys(first).sort(), ['agentId', 'apiKey', 'organizationId', 'workspaceId']);
    assert.match(first.apiKey, /^sk_test_/);
    assert.equal((await stat(join(dir, 'demo-credentials.json'))).mode & 0o777, 0o600);

    const second = await bootstrap();
    assert.deepEqual(second, first);

    const token = await requestToken(api, first.apiKey, first.organizationId);
    assert.equal(token.status, 200);
    const me = await api.request('GET', '/v1/auth/me', { token: token.body.accessToken });
    assert.deepEqual(me.body.scopes, ['admin:all']);
    const tickets = await api.request('GET', `/v1/tickets?workspaceId=${first.workspaceId}`, { token: first.apiKey });
    assert.equal(tickets.status, 200, 'the key reaches the sandbox workspace');

    // once the stored key is revoked, the next run mints a new one
    const del = await api.request('DELETE', `/v1/organizations/${first.organizationId}/api-keys/${me.body.id}`, {
      token: first.apiKey,
    });
    assert.equal(del.status, 204);
    const third = await bootstrap();
    assert.notEqual(third.apiKey, first.apiKey);
    assert.equal(third.organizationId, first.organizationId);
    assert.equal((await api.request('GET', '/v1/auth/me', { token: third.apiKey })).status, 200);
  });
});
