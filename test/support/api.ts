import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../api/app';
import { createDeps, type AppDeps } from '../../api/deps';
import { loadConfig } from '../../lib/config';
import { createTenant, type Tenant } from './factories';

export interface TestApi {
  baseUrl: string;
  deps: AppDeps;
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  stop(): Promise<void>;
}
export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}
export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * The real app on an ephemeral loopback port with real Postgres, Redis and Temporal
 * (the test run's own database and Temporal server; workers run beside the suite).
 */
export async function startApi(
  env: Partial<NodeJS.ProcessEnv> = {},
  /** deps to replace on the real ones, e.g. `resolveHost` so no test needs real DNS, a `logger` that captures, a `clock` to stand at a boundary */
  overrides: Partial<Pick<AppDeps, 'resolveHost' | 'logger' | 'clock'>> = {},
): Promise<TestApi> {
  const deps = Object.assign(await createDeps(loadConfig({ ...process.env, ...env })), overrides);
  const server: Server = await new Promise((resolve) => {
    const s = createApp(deps).listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    deps,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(baseUrl + path, { method, headers, body });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the text */
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.close();
    },
  };
}

/** A 4xx/5xx in the ticketing envelope: status, code (when given), message and a req_ id. */
export function assertError(res: Pick<TestResponse, 'status' | 'body'>, status: number, code?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = res.body?.error;
  assert.ok(err, `no error envelope in ${JSON.stringify(res.body)}`);
  if (code) assert.equal(err.code, code);
  assert.equal(err.status, status);
  assert.equal(typeof err.message, 'string');
  assert.ok(err.message.length > 0);
  assert.match(err.requestId, /^req_/);
}

/**
 * What most /v1 test files start with: the API and a tenant of their own, its sdk key
 * (`token`) and workspace id (`ws`). The caller stops `api` after its tests.
 */
export async function startTenantApi(overrides: Parameters<typeof startApi>[1] = {}): Promise<{ api: TestApi; tenant: Tenant; token: string; ws: string }> {
  const api = await startApi({}, overrides);
  const tenant = await createTenant(api.deps.db);
  return { api, tenant, token: tenant.key.key, ws: tenant.workspace.id };
}
