// A new platform customer in one transaction (`npm run admin -- bootstrap` and
// `create-tenant`, and the tests' tenants): an organisation with one workspace, an
// organisation admin and an agent, both members of it, and a token for each. Every call
// makes a new tenant that shares nothing with any other.
import type { Db } from '../../db/db';
import { insertPlatformOrganization } from '../../db/repositories/platform-organizations';
import { addPlatformMembership, insertPlatformUser } from '../../db/repositories/platform-users';
import { newId } from '../../lib/ids';
import { createPlatformWorkspace } from './create-workspace';
import { issuePlatformToken } from './issue-token';
import type { PlatformEnvironment } from './types';

export interface PlatformTenantInput {
  name: string;
  /** the admin's and the agent's email domain (default: a slug of the name plus `.example`) */
  emailDomain?: string;
  /** the tokens' environment (default test: bootstrap's tokens are sandbox tokens) */
  environment?: PlatformEnvironment;
  now?: Date;
}

export interface PlatformTenant {
  organizationId: string;
  workspaceId: string;
  /** the workspace's channels by type (email, web, chat, in_game, api) */
  channelIds: Record<string, string>;
  adminUserId: string;
  agentUserId: string;
  /** an organisation admin's token */
  adminToken: string;
  /** an agent's token in the workspace */
  agentToken: string;
}

export async function createPlatformTenant(db: Db, input: PlatformTenantInput): Promise<PlatformTenant> {
  const now = input.now ?? new Date();
  const environment = input.environment ?? 'test';
  const slug = input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';
  const domain = input.emailDomain ?? `${slug}.example`;
  const suffix = newId('usr', now.getTime()).slice(-6);
  return db.transaction(async (m) => {
    const org = await insertPlatformOrganization(m, { id: newId('org', now.getTime()), name: input.name });
    const { workspace, channels } = await createPlatformWorkspace(m, { organizationId: org.id, name: `${input.name} Support`, now });
    const admin = await insertPlatformUser(m, {
      id: newId('usr', now.getTime()),
      organizationId: org.id,
      email: `admin+${suffix}@${domain}`,
      name: `${input.name} Admin`,
      role: 'admin',
      isOrgAdmin: true,
      status: 'active',
      createdAt: now,
    });
    const agent = await insertPlatformUser(m, {
      id: newId('usr', now.getTime()),
      organizationId: org.id,
      email: `agent+${suffix}@${domain}`,
      name: `${input.name} Agent`,
      role: 'agent',
      isOrgAdmin: false,
      status: 'active',
      createdAt: now,
    });
    await addPlatformMembership(m, workspace.id, admin.id);
    await addPlatformMembership(m, workspace.id, agent.id);
    const common = { organizationId: org.id, workspaceId: workspace.id, environment, now };
    const adminToken = await issuePlatformToken(m, { ...common, userId: admin.id, name: 'Bootstrap admin token' });
    const agentToken = await issuePlatformToken(m, { ...common, userId: agent.id, name: 'Bootstrap agent token' });
    return {
      organizationId: org.id,
      workspaceId: workspace.id,
      channelIds: Object.fromEntries(channels.map((c) => [c.type, c.id])),
      adminUserId: admin.id,
      agentUserId: agent.id,
      adminToken: adminToken.secret,
      agentToken: agentToken.secret,
    };
  });
}
