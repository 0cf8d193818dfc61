// Deterministic bench data: tickets composed from game-support word pools with a seeded
// PRNG (mulberry32), written straight into `tickets` with one multi-row INSERT per batch
// (unnest of column arrays). This bypasses the ticket workflows ON PURPOSE: it exists to
// give the read benchmarks (get, list, full-text search) a realistic table, and tickets
// created this way have no workflow behind them. Never point it at a real database.
//
//   DATABASE_URL=… tsx bench/seed.ts [count]   (prints what it made; for manual EXPLAINs)
import type { Pool } from 'pg';
import { PRIORITY_RANK } from '../domain/tickets/rules';
import { Rng, seededId } from './lib/rng';
export { Rng, mulberry32, seededId } from './lib/rng';
import { generateText } from './lib/ticket-text';
export { generateText, SEARCH_TERMS, type GeneratedText } from './lib/ticket-text';

// ---- rows ------------------------------------------------------------------------------------

export interface SeedPlayer {
  id: string;
  playerId: string;
}

export interface SeedTicketsOptions {
  workspaceId: string;
  players: SeedPlayer[];
  agents: string[];
  count: number;
  seed: number;
  /** created_at is spread uniformly over the `days` before `endMs` */
  endMs: number;
  days?: number;
  batchSize?: number;
}

const COLUMNS = [
  ['id', 'text'],
  ['workspace_id', 'text'],
  ['player_ref', 'text'],
  ['player_id', 'text'],
  ['title', 'text'],
  ['body', 'text'],
  ['status', 'text'],
  ['priority', 'text'],
  ['priority_rank', 'int2'],
  ['category', 'text'],
  ['source', 'text'],
  ['assignee_id', 'text'],
  ['ai_triaged', 'bool'],
  ['ai_suggested_category', 'text'],
  ['ai_confidence', 'float8'],
  ['message_count', 'int4'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['resolved_at', 'timestamptz'],
  ['closed_at', 'timestamptz'],
  ['first_response_at', 'timestamptz'],
] as const;

const INSERT_SQL = `INSERT INTO tickets (${COLUMNS.map(([c]) => c).join(', ')})
  SELECT * FROM unnest(${COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})`;

const HOUR = 3_600_000;

/**
 * Inserts `count` tickets into one workspace. Status, priority, priority_rank, source,
 * assignee and the lifecycle timestamps are mutually consistent (a resolved ticket has
 * resolved_at, an open one has no assignee, …). Returns the ids in creation order.
 */
export async function seedTickets(pool: Pool, o: SeedTicketsOptions): Promise<string[]> {
  const rng = new Rng(o.seed);
  const days = o.days ?? 90;
  const span = days * 24 * HOUR;
  const batch = o.batchSize ?? 2000;
  // sorted creation times, so ids (time-prefixed) sort like created_at, as in production
  const times = Array.from({ length: o.count }, () => o.endMs - span + Math.floor(rng.next() * span)).sort((a, b) => a - b);
  const ids: string[] = [];
  for (let start = 0; start < o.count; start += batch) {
    const cols: unknown[][] = COLUMNS.map(() => []);
    for (let i = start; i < Math.min(o.count, start + batch); i++) {
      const created = times[i];
      const id = seededId('tkt', created, rng);
      ids.push(id);
      const player = o.players[rng.int(o.players.length)];
      const text = generateText(rng);
      const age = o.endMs - created;
      // older tickets are further along their lifecycle
      const status = rng.weighted<string>(
        age > 14 * 24 * HOUR
          ? [['closed', 70], ['resolved', 10], ['in_progress', 8], ['open', 12]]
          : [['closed', 15], ['resolved', 20], ['in_progress', 30], ['open', 35]],
      );
      const priority = rng.weighted<keyof typeof PRIORITY_RANK>([['low', 25], ['medium', 45], ['high', 22], ['urgent', 8]]);
      const source = rng.weighted<string>([['api', 30], ['sdk', 40], ['discord', 10], ['steam', 10], ['email', 10]]);
      const assigned = status !== 'open' && o.agents.length > 0;
      const firstResponse = status !== 'open' ? Math.min(o.endMs, created + (1 + rng.int(48)) * HOUR / 2) : null;
      const resolved = status === 'resolved' || status === 'closed' ? Math.min(o.endMs, (firstResponse ?? created) + (1 + rng.int(96)) * HOUR) : null;
      const closed = status === 'closed' ? Math.min(o.endMs, resolved! + 72 * HOUR) : null;
      const updated = Math.max(created, firstResponse ?? 0, resolved ?? 0, closed ?? 0);
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const row = [
        id,
        o.workspaceId,
        player.id,
        player.playerId,
        text.title,
        text.body,
        status,
        priority,
        PRIORITY_RANK[priority],
        text.category,
        source,
        assigned ? rng.pick(o.agents) : null,
        true,
        text.category,
        Math.round((0.55 + rng.next() * 0.44) * 1000) / 1000,
        status === 'open' ? 1 : 2 + rng.int(6),
        iso(created),
        iso(updated),
        iso(resolved),
        iso(closed),
        iso(firstResponse),
      ];
      row.forEach((v, c) => cols[c].push(v));
    }
    await pool.query(INSERT_SQL, cols);
  }
  return ids;
}

export interface SeedTenant {
  organizationId: string;
  workspaceId: string;
  players: SeedPlayer[];
  agents: string[];
}

/** A scale-plan organization with one live workspace, `players` players and `agents` agents. */
export async function seedTenant(
  pool: Pool,
  o: { seed: number; name: string; players: number; agents: number; nowMs: number },
): Promise<SeedTenant> {
  const rng = new Rng(o.seed);
  const t = o.nowMs - 120 * 24 * HOUR;
  const organizationId = seededId('org', t, rng);
  const workspaceId = seededId('ws', t, rng);
  await pool.query('INSERT INTO organizations (id, name, plan) VALUES ($1, $2, $3)', [organizationId, `Bench ${o.name}`, 'scale']);
  await pool.query('INSERT INTO workspaces (id, organization_id, name, environment) VALUES ($1, $2, $3, $4)', [
    workspaceId,
    organizationId,
    `Bench ${o.name}`,
    'live',
  ]);
  const agents = Array.from({ length: o.agents }, (_, i) => ({ id: seededId('agt', t + i, rng), name: `Agent ${i + 1}` }));
  if (agents.length) {
    await pool.query(
      `INSERT INTO agents (id, workspace_id, name, email) SELECT id, $1, name, id || '@studio.test' FROM unnest($2::text[], $3::text[]) AS a(id, name)`,
      [workspaceId, agents.map((a) => a.id), agents.map((a) => a.name)],
    );
  }
  const players = Array.from({ length: o.players }, (_, i) => ({ id: seededId('kpl', t + i, rng), playerId: `plr_${o.name}_${i + 1}` }));
  const platforms = ['pc', 'ps5', 'xbox', 'switch', 'ios', 'android'];
  await pool.query(
    `INSERT INTO players (id, workspace_id, player_id, display_name, email, metadata, first_seen_at, last_seen_at)
     SELECT id, $1, pid, 'Player ' || pid, pid || '@players.test', jsonb_build_object('platform', plat, 'loyaltyTier', 'gold'),
            to_timestamp($5::double precision / 1000), to_timestamp($5::double precision / 1000)
       FROM unnest($2::text[], $3::text[], $4::text[]) AS p(id, pid, plat)`,
    [workspaceId, players.map((p) => p.id), players.map((p) => p.playerId), players.map(() => rng.pick(platforms)), t],
  );
  return { organizationId, workspaceId, players, agents: agents.map((a) => a.id) };
}

// ---- manual use ------------------------------------------------------------------------------

if (require.main === module) {
  (async () => {
    const { Pool: PgPool } = await import('pg');
    const url = process.env.DATABASE_URL;
    if (!url || !/bench/.test(url)) throw new Error('set DATABASE_URL to a bench database (its name must contain "bench")');
    const count = Number(process.argv[2] ?? 100_000);
    const pool = new PgPool({ connectionString: url, max: 2 });
    const started = Date.now();
    const tenant = await seedTenant(pool, { seed: 7, name: `manual${Date.now()}`, players: 2000, agents: 12, nowMs: Date.now() });
    await seedTickets(pool, { ...tenant, count, seed: 42, endMs: Date.now() });
    await pool.query('VACUUM (ANALYZE) tickets');
    console.log(JSON.stringify({ ...tenant, players: tenant.players.length, count, ms: Date.now() - started }));
    await pool.end();
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
