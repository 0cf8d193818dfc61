// What the platform API's tests share: the API with generous limits, tenants of their own
// (domain/platform/create-tenant.ts, as `npm run admin -- create-tenant` makes them), and the
// platform error envelope's assertion.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import type { PlatformEnvironment, PlatformRole } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import { createPlatformTenant, type PlatformTenant, type PlatformTenantInput } from '../../domain/platform/create-tenant';
import { startApi, type TestApi, type TestResponse } from './api';

/** Limits high enough that no test but a limit test meets them (each sets its own small ones). */
export const GENEROUS_PLATFORM_LIMITS = 'platform-read=100000,platform-write=100000,platform-anonymous-ip=100000';

export function startPlatformApi(env: Partial<NodeJS.ProcessEnv> = {}, overrides: Parameters<typeof startApi>[1] = {}): Promise<TestApi> {
  const base = process.env.RATE_LIMITS ? `${process.env.RATE_LIMITS},` : '';
  return startApi({ RATE_LIMITS: base + GENEROUS_PLATFORM_LIMITS, ...env }, overrides);
}

let tenants = 0;

/** A new organisation with one workspace, an organisation admin and an agent, each with a token. */
export function platformTenant(api: TestApi, input: Partial<PlatformTenantInput> = {}): Promise<PlatformTenant> {
  tenants += 1;
  return createPlatformTenant(api.deps.db, { name: `Studio ${process.pid}-${tenants}`, ...input });
}

/** A 4xx/5xx in the platform envelope: status, code (when given), message and a req_ id. */
export function assertPlatformError(res: Pick<TestResponse, 'status' | 'body'>, status: number, code?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = res.body?.error;
  assert.ok(err, `no error envelope in ${JSON.stringify(res.body)}`);
  if (code) assert.equal(err.code, code);
  assert.equal(err.status, status);
  assert.equal(typeof err.message, 'string');
  assert.match(err.request_id, /^req_/);
}

/**
 * A new active user of `t`'s organisation with `role`, a member of `workspaceId` (default:
 * the tenant's workspace), and a token of theirs there (`environment`, default test).
 */
export async function platformMember(
  api: TestApi,
  t: PlatformTenant,
  role: PlatformRole,
  opts: { workspaceId?: string; environment?: PlatformEnvironment; isOrgAdmin?: boolean } = {},
): Promise<{ userId: string; token: string }> {
  const workspaceId = opts.workspaceId ?? t.workspaceId;
  return api.deps.db.transaction(async (m) => {
    const now = new Date();
    const user = await insertPlatformUser(m, {
      id: newId('usr', now.getTime()),
      organizationId: t.organizationId,
      email: `${role}-${randomUUID().slice(0, 8)}@studio.example`,
      name: `A ${role}`,
      role,
      isOrgAdmin: opts.isOrgAdmin ?? false,
      status: 'active',
      createdAt: now,
    });
    await addPlatformMembership(m, workspaceId, user.id);
    const { secret } = await issuePlatformToken(m, { organizationId: t.organizationId, workspaceId, userId: user.id, name: role, environment: opts.environment ?? 'test', now });
    return { userId: user.id, token: secret };
  });
}
