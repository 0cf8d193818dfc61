import assert from 'node:assert/strict';
import type { TestApi } from './api';
export { assertError } from './api';
import { createAgent, createPlayer, createTenant } from './factories';

export type Tenant = Awaited<ReturnType<typeof tenantWithPlayer>>;

/** An organization, workspace, server key, one player (with an email) and one agent. */
export async function tenantWithPlayer(api: TestApi, opts: Parameters<typeof createTenant>[1] = {}) {
  const { org, workspace, key } = await createTenant(api.deps.db, opts);
  const player = await createPlayer(api.deps.db, workspace.id, {
    displayName: 'Robin',
    email: `robin.${workspace.id}@players.test`,
    metadata: { platform: 'steam', steamId: '7656119', lifetimeSpend: '42.5', loyaltyTier: 'gold', accountAge: '3y' },
  });
  const agent = await createAgent(api.deps.db, workspace.id);
  return { org, workspace, key, token: key.key, player, agent };
}

export async function createTicket(api: TestApi, t: Tenant, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/v1/tickets', {
    token: t.token,
    body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'Cannot log in', body: 'Login fails with error 42', ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Polls until `check` returns a truthy value (eventually-consistent effects like triage). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

