// The bench's tenants and rows: a 100k-ticket workspace for full-text search, a
// 10k-ticket workspace for get/list, and an empty workspace (with players) that the
// create scenario fills through the real API. All seeded with fixed seeds.
import type { Pool } from 'pg';
import { createBenchKey } from './key';
import { Rng, seedTenant, seedTickets, type SeedTenant } from '../seed';

export interface Tenant extends SeedTenant {
  key: string;
  keyId: string;
  tickets: number;
}

export interface BenchData {
  search: Tenant;
  list: Tenant;
  create: Tenant;
  /** ids of the list workspace that the get-by-id scenario cycles through */
  getIds: string[];
  seedMs: number;
}

export const SIZES = { search: 100_000, list: 10_000, getIds: 2_000 };

async function withKey(databaseUrl: string, t: SeedTenant, tickets: number): Promise<Tenant> {
  const k = await createBenchKey(databaseUrl, t.organizationId, 'bench');
  return { ...t, key: k.key, keyId: k.id, tickets };
}

/** Messages for every seeded ticket (message_count of them), so get-by-id reads real rows. */
async function seedMessages(pool: Pool, workspaceId: string): Promise<void> {
  await pool.query(
    `INSERT INTO messages (id, ticket_id, author_id, author_type, body, created_at)
     SELECT 'msg_' || substr(md5(t.id || ':' || g), 1, 26), t.id,
            CASE WHEN g % 2 = 1 THEN t.player_id ELSE COALESCE(t.assignee_id, 'agt_unknown') END,
            CASE WHEN g % 2 = 1 THEN 'player' ELSE 'agent' END,
            CASE WHEN g % 2 = 1 THEN 'Any update on this? I still cannot play.'
                 ELSE 'Thanks for reaching out! We are looking into it and will update you shortly.' END,
            LEAST(now(), t.created_at + g * interval '20 minutes')
       FROM tickets t, generate_series(1, t.message_count) g
      WHERE t.workspace_id = $1`,
    [workspaceId],
  );
}

export async function seedAll(pool: Pool, databaseUrl: string, nowMs: number): Promise<BenchData> {
  const started = Date.now();
  const searchT = await seedTenant(pool, { seed: 1001, name: 'search', players: 2000, agents: 12, nowMs });
  const listT = await seedTenant(pool, { seed: 1002, name: 'list', players: 500, agents: 6, nowMs });
  const createT = await seedTenant(pool, { seed: 1003, name: 'create', players: 256, agents: 4, nowMs });
  await seedTickets(pool, { ...searchT, count: SIZES.search, seed: 42, endMs: nowMs });
  const listIds = await seedTickets(pool, { ...listT, count: SIZES.list, seed: 43, endMs: nowMs });
  await seedMessages(pool, searchT.workspaceId);
  await seedMessages(pool, listT.workspaceId);
  // the steady state autovacuum would reach: statistics, visibility map, GIN pending list merged
  await pool.query('VACUUM (ANALYZE) tickets');
  await pool.query('VACUUM (ANALYZE) messages');
  await pool.query('VACUUM (ANALYZE) players');
  const rng = new Rng(7);
  const getIds = Array.from({ length: SIZES.getIds }, () => listIds[rng.int(listIds.length)]);
  return {
    search: await withKey(databaseUrl, searchT, SIZES.search),
    list: await withKey(databaseUrl, listT, SIZES.list),
    create: await withKey(databaseUrl, createT, 0),
    getIds,
    seedMs: Date.now() - started,
  };
}

/** POST /v1/auth/token for a tenant's key. */
export async function accessToken(baseUrl: string, t: Tenant): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: t.key, organizationId: t.organizationId }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(body)}`);
  return body.accessToken;
}

/** Follows pagination.nextCursor `pages - 1` times; returns the cursor of page `pages`. */
export async function cursorOfPage(baseUrl: string, token: string, workspaceId: string, pages: number): Promise<string> {
  let cursor: string | null = null;
  for (let p = 1; p < pages; p++) {
    const url = `${baseUrl}/v1/tickets?workspaceId=${workspaceId}&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`list page ${p}: ${res.status} ${JSON.stringify(body)}`);
    cursor = body.pagination.nextCursor;
    if (!cursor) throw new Error(`list ended at page ${p}`);
  }
  return cursor!;
}
