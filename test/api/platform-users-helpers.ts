// What the platform users tests share (platform-users.test.ts, platform-users-lifecycle.test.ts):
// members of a tenant with a role and a token, tickets assigned to a user, the invitee
// addresses that make the invitation arrive through the suite's SMTP catcher, and the
// activation link's token in a received message.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformRole } from '../../domain/platform/types';
import { newId } from '../../lib/ids';
import type { TestApi } from '../support/api';
import { platformMember } from '../support/platform';

export const DAY = 86_400_000;

/** A provider-down address: the invitation then arrives through the suite's SMTP catcher. */
export const inviteeEmail = (tag: string) => `${tag}+provider-down-${randomUUID().slice(0, 8)}@Studio.Example`;

/** A member of the tenant's workspace (or `workspaceId`) with `role`, active, and a token of theirs there. */
export async function member(api: TestApi, t: PlatformTenant, role: PlatformRole, workspaceId = t.workspaceId) {
  const made = await platformMember(api, t, role, { workspaceId });
  return { id: made.userId, token: made.token };
}

/** An open ticket of the workspace assigned to `userId` (the row as the ticket workflow keeps it). */
export async function openTicket(api: TestApi, t: PlatformTenant, userId: string, status = 'open') {
  const id = newId('tkt');
  await api.deps.db.query(
    `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, contact_email, priority, status, assignee_id)
     VALUES ($1, $2, $3, 'test', $4, 'Crash on start', 'player@example.com', 'normal', $5, $6)`,
    [id, t.organizationId, t.workspaceId, t.channelIds.email, status, userId],
  );
  return id;
}

/** The activation link's token in a raw SMTP message (its quoted-printable undone). */
export function linkTokenIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  const m = /(https?:\/\/\S+\/platform\/activate\?token=[A-Za-z0-9_%-]+)/.exec(text);
  assert.ok(m, `no activation link in the mail:\n${text}`);
  return new URL(m[1]).searchParams.get('token')!;
}

export const invite = (api: TestApi, token: string, body: object) => api.request('POST', '/platform/v1/users/invite', { token, body });
