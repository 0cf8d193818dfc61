// Deterministic bench data: tickets composed from game-support word pools with a seeded
// PRNG (mulberry32), written straight into `tickets` with one multi-row INSERT per batch
// (unnest of column arrays). This bypasses the ticket workflows ON PURPOSE: it exists to
// give the read benchmarks (get, list, full-text search) a realistic table, and tickets
// created this way have no workflow behind them. Never point it at a real database.
//
//   DATABASE_URL=… tsx bench/seed.ts [count]   (prints what it made; for manual EXPLAINs)
import type { Pool } from 'pg';
import { PRIORITY_RANK } from '../workflows/ticket/ticket.logic';
import { Rng, seededId } from './lib/rng';
export { Rng, mulberry32, seededId } from './lib/rng';

// ---- text ------------------------------------------------------------------------------------

/**
 * Query words the search benchmark uses and how often the generator puts them in:
 * RARE in ~0.1 % of tickets, COMMON in ~85 %, PHRASE (adjacent, in this order) in ~3 %.
 * The benchmark reports the real match counts from the table, not these targets.
 */
export const SEARCH_TERMS = {
  rare: 'chronoshard',
  common: 'game',
  phrase: '"connection lost"',
} as const;
const P_RARE = 0.001;
const P_COMMON = 0.85;
const P_PHRASE = 0.03;

const GAMES = ['Starfall Arena', 'Dungeon Tactics', 'Kart Legends', 'Skyforge Online', 'Pixel Farm', 'Mech Brawlers'];
const PLATFORMS = ['PC', 'Steam Deck', 'PS5', 'Xbox Series X', 'Switch', 'Android', 'iOS', 'Mac'];
const MODES = ['ranked', 'co-op', 'campaign', 'battle royale', 'arena', 'tutorial', 'guild raid', 'daily quest'];
const ITEMS = ['legendary sword', 'battle pass', 'gem pack', 'starter bundle', 'skin', 'mount', 'season pass', 'loot crate', 'emote', 'pet companion'];
const SYMPTOMS = [
  'crashes on startup', 'freezes during loading', 'black screen after the intro', 'stutters badly', 'drops to 10 fps',
  'disconnects every few minutes', 'shows error code 0x80040154', 'stuck on the loading screen', 'audio cuts out',
  'controller not detected', 'textures are missing', 'progress was reset', 'inventory is empty', 'save file corrupted',
];
const ACCOUNT = [
  'cannot log in', 'password reset email never arrives', 'two-factor code rejected', 'account was hacked',
  'email change request', 'linked the wrong console account', 'want to delete my account', 'username change',
];
const BILLING = [
  'charged twice for the', 'purchase failed but money was taken for the', 'refund request for the',
  'did not receive the', 'promo code does not work for the', 'subscription renewed without warning, wanted the',
];
const ABUSE = ['player is cheating with an aimbot', 'toxic chat in', 'griefing teammates in', 'exploit that duplicates gold in', 'bot farming in'];
const FEEDBACK = ['suggestion: add a replay system to', 'the new balance patch ruined', 'please bring back the old map in', 'love the new season of'];
const OPENERS = ['Hi support,', 'Hello,', 'Hey team,', 'Good morning,', 'Dear support team,', 'Hi there,', ''];
const DETAILS = [
  'It started after the latest patch.', 'I already reinstalled twice and verified the files.', 'My friends have the same issue.',
  'This happens every single time I try.', 'I tried restarting the router and the console.', 'Support ticket from last week was never answered.',
  'I have attached a screenshot of the error.', 'The launcher says everything is up to date.', 'My order number is in my account history.',
  'I play on a wired ethernet connection.', 'Graphics drivers are the newest version.', 'It worked fine yesterday evening.',
  'Nothing in the FAQ helped.', 'I lost about three hours of progress.', 'The server region is set to Europe West.',
];
const CLOSERS_COMMON = [
  'Please help, I really love this game.', 'Can you fix this? The game is unplayable for me.', 'I have spent a lot of money on this game.',
  'Any idea when the game will be fixed?', 'Thanks, otherwise a great game.',
];
const CLOSERS_OTHER = ['Thanks in advance.', 'Please respond soon.', 'Regards.', 'Thank you!', 'Cheers.'];

const CATEGORIES = ['technical', 'account', 'billing', 'abuse', 'feedback', 'gameplay'] as const;

export interface GeneratedText {
  title: string;
  body: string;
  category: (typeof CATEGORIES)[number];
}

/** One ticket's title, body and category; titles stay well under 255 characters. */
export function generateText(rng: Rng): GeneratedText {
  const game = rng.pick(GAMES);
  const platform = rng.pick(PLATFORMS);
  const mode = rng.pick(MODES);
  const item = rng.pick(ITEMS);
  const category = rng.weighted<GeneratedText['category']>([
    ['technical', 35], ['account', 20], ['billing', 20], ['abuse', 10], ['feedback', 8], ['gameplay', 7],
  ]);
  let title: string;
  let problem: string;
  switch (category) {
    case 'technical': {
      const s = rng.pick(SYMPTOMS);
      title = `${game} ${s} on ${platform}`;
      problem = `${game} ${s} when I start a ${mode} match on ${platform}.`;
      break;
    }
    case 'account': {
      const s = rng.pick(ACCOUNT);
      title = `${s[0].toUpperCase()}${s.slice(1)} (${platform})`;
      problem = `I ${s.startsWith('want') || s.startsWith('cannot') ? s : `have a problem: ${s}`} for my ${game} account.`;
      break;
    }
    case 'billing': {
      const s = rng.pick(BILLING);
      title = `${s[0].toUpperCase()}${s.slice(1)} ${item}`;
      problem = `I was ${s.startsWith('charged') ? s : `told to write here: ${s}`} ${item} in ${game} on ${platform}.`;
      break;
    }
    case 'abuse': {
      const s = rng.pick(ABUSE);
      title = `Report: ${s} ${mode}`;
      problem = `Another ${s} ${mode} on the ${platform} servers of ${game}.`;
      break;
    }
    case 'feedback': {
      const s = rng.pick(FEEDBACK);
      title = `${s[0].toUpperCase()}${s.slice(1)} ${mode}`;
      problem = `${s[0].toUpperCase()}${s.slice(1)} ${mode} in ${game}.`;
      break;
    }
    default: {
      title = `Quest bug in ${mode}: ${item} reward missing`;
      problem = `I finished the ${mode} quest in ${game} but the ${item} reward never showed up.`;
    }
  }
  const parts: string[] = [];
  const opener = rng.pick(OPENERS);
  if (opener) parts.push(opener);
  parts.push(problem);
  const n = 1 + rng.int(4);
  for (let i = 0; i < n; i++) parts.push(rng.pick(DETAILS));
  if (rng.chance(P_PHRASE)) parts.push('Every time the connection lost message appears I get kicked to the menu.');
  if (rng.chance(P_RARE)) parts.push(`The ${SEARCH_TERMS.rare} I bought vanished from my stash.`);
  // "game" must be (nearly) absent outside the closer so P_COMMON controls its frequency:
  // the generated problem sentences never contain the word itself (only game names).
  parts.push(rng.chance(P_COMMON) ? rng.pick(CLOSERS_COMMON) : rng.pick(CLOSERS_OTHER));
  return { title: title.slice(0, 250), body: parts.join(' '), category };
}

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
