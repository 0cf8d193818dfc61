// What the platform ticket tests share (platform-tickets.test.ts, platform-tickets-changes.test.ts):
// a member of a tenant's workspace with a token, and the create and patch requests.
import assert from 'node:assert/strict';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import type { PlatformRole } from '../../domain/platform/types';
import type { TestApi } from '../support/api';
import { platformMember } from '../support/platform';

export function ticketRequests(api: TestApi) {
  /** A user of `t`'s organisation with `role`, working in its workspace, and a token of theirs. */
  const member = (t: PlatformTenant, role: PlatformRole, environment: 'live' | 'test' = 'test') => platformMember(api, t, role, { environment });

  const create = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.request('POST', '/platform/v1/tickets', { token, body, headers });

  const newTicket = async (t: PlatformTenant, extra: Record<string, unknown> = {}, token = t.adminToken) => {
    const res = await create(token, { subject: 'Cannot log in', channel_id: t.channelIds.email, contact_email: 'player@example.com', ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };

  const patch = (token: string, id: string, body: unknown) => api.request('PATCH', `/platform/v1/tickets/${id}`, { token, body });

  return { member, create, newTicket, patch };
}
