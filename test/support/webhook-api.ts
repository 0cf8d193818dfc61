// Helpers for the /v1/webhooks API tests (the receiver itself is in webhooks.ts).
import assert from 'node:assert/strict';
import type { Resolver } from '../../lib/webhooks/url-policy';
import type { TestApi } from './api';

/**
 * DNS for the API under test: names map to fixed addresses, anything else does not
 * resolve. No test depends on real DNS, and a name can "resolve" to a private address.
 */
export const FAKE_DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
};

export const fakeResolver: Resolver = async (hostname) => {
  const addresses = FAKE_DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** POST /v1/webhooks that must succeed; returns the created endpoint (with its secret). */
export async function createWebhook(api: TestApi, token: string, body: Record<string, unknown>) {
  const res = await api.request('POST', '/v1/webhooks', { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as {
    id: string;
    workspaceId: string;
    url: string;
    events: string[];
    description: string;
    active: boolean;
    testMode: boolean;
    secret: string;
    createdAt: string;
    updatedAt: string;
  };
}

/** A valid POST /v1/webhooks body for the workspace (a name fakeResolver resolves), with `over` on top. */
export const webhookBody = (workspaceId: string, over: Record<string, unknown> = {}) => ({
  workspaceId,
  url: 'https://hooks.example.com/support',
  events: ['ticket.created'],
  ...over,
});
