// `npm run admin -- bootstrap` prints a working push demo: { email, password, appId, apiKey },
// the same on every run, beside the unchanged ticketing block.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestApi } from '../support/api';
import { apiKeyHeader, bearer, startPushApi } from '../support/push';
import { openApnsCredentials, openFcmCredentials } from '../../lib/push/credential-box';
import { demoCredentials } from '../../lib/push/demo-credentials';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');

describe('npm run admin -- bootstrap: push', () => {
  let api: TestApi;
  let dir: string;
  const bootstrap = async () => {
    const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', 'bootstrap'], {
      cwd: ROOT,
      env: { ...process.env, DEMO_CREDENTIALS_FILE: join(dir, 'demo-credentials.json') },
    });
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    api = await startPushApi();
    dir = await mkdtemp(join(tmpdir(), 'push-bootstrap-'));
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints a demo account, its app and an app key that work, the same on every run', async () => {
    const first = await bootstrap();
    assert.deepEqual(Object.keys(first).sort(), ['platform', 'push', 'ticketing']);
    assert.deepEqual(Object.keys(first.push).sort(), ['apiKey', 'appId', 'email', 'password', 'superAdminEmail', 'superAdminPassword']);
    assert.equal((await stat(join(dir, 'push-demo-credentials.json'))).mode & 0o777, 0o600);

    const second = await bootstrap();
    assert.deepEqual(second, first, 'idempotent, ticketing block included');

    const { email, password, appId, apiKey } = first.push;
    const login = await api.request('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const apps = await api.request('GET', '/api/v1/apps', { headers: bearer(login.body.accessToken) });
    assert.deepEqual(apps.body.map((a: any) => a.id), [appId]);
    const byKey = await api.request('GET', `/api/v1/apps/${appId}`, { headers: apiKeyHeader(apiKey) });
    assert.equal(byKey.status, 200);
    // the local sink's credentials, sealed
    assert.equal(byKey.body.hasFcmConfig, true);
    assert.equal(byKey.body.hasApnsConfig, true);
    const { rows } = await api.deps.db.query(`SELECT fcm_credentials AS fcm, apns_credentials AS apns FROM push_apps WHERE id = $1`, [appId]);
    const local = demoCredentials();
    assert.equal(openFcmCredentials(api.deps.config, appId, rows[0].fcm).serviceAccountJson, local.serviceAccountJson);
    assert.deepEqual(openApnsCredentials(api.deps.config, appId, rows[0].apns), local.apns);

    // the operator of trial approvals signs in and reads the admin list
    const op = await api.request('POST', '/api/v1/auth/login', { body: { email: first.push.superAdminEmail, password: first.push.superAdminPassword } });
    assert.equal(op.status, 200, JSON.stringify(op.body));
    assert.equal((await api.request('GET', '/api/v1/admin/trial-requests', { headers: bearer(op.body.accessToken) })).status, 200);

    // a revoked key is replaced by the next run; the password stays
    const keys = await api.request('GET', `/api/v1/api-keys?appId=${appId}`, { headers: bearer(login.body.accessToken) });
    // only this run's key: another test's bootstrap may hold a key of the same demo app
    const own = keys.body.find((k: any) => apiKey.startsWith(k.prefix));
    assert.equal((await api.request('DELETE', `/api/v1/api-keys/${own.id}`, { headers: bearer(login.body.accessToken) })).status, 204);
    const third = await bootstrap();
    assert.notEqual(third.push.apiKey, apiKey);
    assert.equal(third.push.password, password);
    assert.equal((await api.request('GET', `/api/v1/apps/${appId}`, { headers: apiKeyHeader(third.push.apiKey) })).status, 200);
  });
});
