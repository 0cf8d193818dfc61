// Helpers of the push API tests (/api/v1): an app with generous limits (so one file's
// burst never starves another; the limit tests set their own), accounts, apps and keys
// made over HTTP the way a client makes them.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { startApi, type TestApi, type TestResponse } from './api';

export const GENEROUS_PUSH_LIMITS =
  'push-auth-ip=100000,push-trial-ip=100000,push-token=100000,push-anonymous-ip=100000,push-devices-register=100000,push-event-fire=100000,push-notifications-send=100000';

export function startPushApi(env: Partial<NodeJS.ProcessEnv> = {}): Promise<TestApi> {
  return startApi({ RATE_LIMITS: GENEROUS_PUSH_LIMITS, ...env });
}

export const uniqueEmail = (tag = 'dev') => `${tag}-${randomUUID().slice(0, 8)}@studio.example`;

/** A random address of the IPv6 documentation range, so a limit test's per-IP bucket is its own. */
export const randomIp = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

export interface PushAccount {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
}

export async function registerAccount(api: TestApi, opts: { email?: string; password?: string; name?: string } = {}): Promise<PushAccount> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'correct horse battery';
  const res = await api.request('POST', '/api/v1/auth/register', { body: { email, password, name: opts.name ?? 'Robin' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { email, password, accessToken: res.body.accessToken, refreshToken: res.body.refreshToken, userId: res.body.user.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const apiKeyHeader = (key: string) => ({ authorization: `ApiKey ${key}` });

export async function createApp(api: TestApi, token: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.request('POST', '/api/v1/apps', {
    headers: bearer(token),
    body: { name: 'Space Miners', bundleId: 'com.studio.miners', platform: 'Android', ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export async function createKey(api: TestApi, token: string, appId: string, name = 'sdk'): Promise<any> {
  const res = await api.request('POST', '/api/v1/api-keys', { headers: bearer(token), body: { appId, name } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** An error in the push envelope: `{message, code}` (and `errors` on a 400). */
export function assertPushError(res: Pick<TestResponse, 'status' | 'body'>, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0);
  if (status === 400) assert.equal(typeof res.body.errors, 'object');
}

export interface OwnerAndStranger {
  api: TestApi;
  /** an account with a company of its own */
  owner: PushAccount;
  /** an account of another company */
  stranger: PushAccount;
}

/**
 * For a describe block (or a file): a push API of its own and two accounts of different
 * companies, made before its tests, the API stopped after them. Read the fields inside tests.
 */
export function withOwnerAndStranger(): OwnerAndStranger {
  const f = {} as OwnerAndStranger;
  beforeAll(async () => {
    f.api = await startPushApi();
    f.owner = await registerAccount(f.api);
    f.stranger = await registerAccount(f.api);
  });
  afterAll(async () => f.api?.stop());
  return f;
}
