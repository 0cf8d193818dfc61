import assert from 'node:assert/strict';
import type { Db } from '../../db/db';
import { insertTicketRows } from '../../db/repositories/tickets';
import { PRIORITY_RANK } from '../../domain/tickets/rules';
import type { TestApi } from './api';
export { assertError } from './api';
import { createAgent, createPlayer, createTenant, type Tenant } from './factories';

/** A tenant (createTenant) with one player (with an email) and one agent; `token` is its key's secret. */
export interface TenantWithPlayer extends Tenant {
  token: string;
  player: { id: string; playerId: string };
  agent: { id: string; name: string };
}

export async function tenantWithPlayer(api: TestApi, opts: Parameters<typeof createTenant>[1] = {}): Promise<TenantWithPlayer> {
  const { org, workspace, key } = await createTenant(api.deps.db, opts);
  const player = await createPlayer(api.deps.db, workspace.id, {
    displayName: 'Robin',
    email: `robin.${workspace.id}@players.test`,
    metadata: { platform: 'steam', steamId: '7656119', lifetimeSpend: '42.5', loyaltyTier: 'gold', accountAge: '3y' },
  });
  const agent = await createAgent(api.deps.db, workspace.id);
  return { org, workspace, key, token: key.key, player, agent };
}

export async function createTicket(api: TestApi, t: TenantWithPlayer, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/v1/tickets', {
    token: t.token,
    body: { workspaceId: t.workspace.id, playerId: t.player.playerId, title: 'Cannot log in', body: 'Login fails with error 42', ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/**
 * `count` open low-priority tickets of the player in one statement (ids `tkt_bulk_<workspace>_<n>`,
 * n from 1, created n seconds ago), body of n given: for tests about counting, not lifecycles.
 */
export async function insertManyTickets(
  db: Db,
  t: { workspaceId: string; playerRef: string; playerId: string },
  count: number,
  bodyOf: (n: number) => string,
): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `tkt_bulk_${t.workspaceId}_${i + 1}`,
    ...t,
    title: `Bulk ${i + 1}`,
    body: bodyOf(i + 1),
    priority: 'low' as const,
    priorityRank: PRIORITY_RANK.low,
    category: null,
    source: 'api' as const,
    tags: [],
    metadata: {},
    createdAt: new Date(now - (i + 1) * 1000).toISOString(),
  }));
  await insertTicketRows(db, rows);
}
