// The four scenarios. Each measures its targets next to their peer in the same run,
// interleaved (app run 1, peer run 1, app run 2, …) so drift hits both alike, after
// one unrecorded warm-up per target; the report keeps the median of the runs.
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { buildListQuery } from '../api/ticketing/tickets/list-query';
import type { AuthCacheStats } from '../api/ticketing/auth';
import { aggregate, runHttp, type Aggregate, type RunStats, type Scenario } from './lib/load';
import type { BenchData } from './lib/data';
import type { Child } from './lib/procs';
import { sleep } from './lib/procs';
import { runNoopDriver } from './peers/noop-workflow';
import { generateText, Rng, SEARCH_TERMS } from './seed';

export interface Profile {
  runs: number;
  warmSec: number;
  createSec: number;
  /** the low-concurrency create pair: latency without the Temporal server saturated */
  createLowSec: number;
  readSec: number;
  searchPeerSec: number;
  authSec: number;
  createConnections: number;
  createLowConnections: number;
  readConnections: number;
}

export const PROFILES: Record<'full' | 'quick', Profile> = {
  full: { runs: 3, warmSec: 2, createSec: 8, createLowSec: 5, readSec: 5, searchPeerSec: 3, authSec: 4, createConnections: 32, createLowConnections: 4, readConnections: 8 },
  quick: { runs: 1, warmSec: 1, createSec: 3, createLowSec: 2, readSec: 2, searchPeerSec: 1, authSec: 2, createConnections: 32, createLowConnections: 4, readConnections: 8 },
};

/** BENCH_PROFILE picks a profile; BENCH_READ_CONNECTIONS / BENCH_CREATE_CONNECTIONS override it. */
export function profileFromEnv(env: NodeJS.ProcessEnv): Profile & { name: string } {
  const name = (env.BENCH_PROFILE ?? 'full') as keyof typeof PROFILES;
  const base = PROFILES[name];
  if (!base) throw new Error(`BENCH_PROFILE must be one of ${Object.keys(PROFILES).join(', ')}`);
  const int = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Math.floor(Number(v)) : d);
  return {
    ...base,
    name,
    readConnections: int(env.BENCH_READ_CONNECTIONS, base.readConnections),
    createConnections: int(env.BENCH_CREATE_CONNECTIONS, base.createConnections),
  };
}

export type Stats = RunStats & { cache?: AuthCacheStats };
export interface Target {
  name: string;
  run: (sec: number) => Promise<Stats>;
  /** after every run (also the warm-up), e.g. let the worker drain */
  after?: () => Promise<void>;
}

export type Log = (line: string) => void;

const fmt = (s: RunStats) =>
  `${s.rps.toFixed(0).padStart(6)} req/s  p50 ${s.p50.toFixed(1)}  p95 ${s.p95.toFixed(1)}  p99 ${s.p99.toFixed(1)} ms` +
  (s.non2xx + s.errors + s.timeouts ? `  FAILURES non2xx=${s.non2xx} errors=${s.errors} timeouts=${s.timeouts} ${JSON.stringify(s.statusCodes)}` : '');

export async function measure(targets: Target[], sec: number, p: Profile, log: Log, secFor?: (t: Target) => number) {
  const runs: Record<string, Stats[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (const t of targets) {
    await t.run(p.warmSec);
    await t.after?.();
  }
  for (let r = 1; r <= p.runs; r++) {
    for (const t of targets) {
      const s = await t.run(secFor ? secFor(t) : sec);
      runs[t.name].push(s);
      log(`  run ${r}/${p.runs} ${t.name.padEnd(22)} ${fmt(s)}`);
      await t.after?.();
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, aggregate(v)])) as Record<string, Aggregate>;
}

export const httpTarget = (name: string, s: Omit<Scenario, 'durationSec'>): Target => ({
  name,
  run: (sec) => runHttp({ ...s, durationSec: sec }),
});

export interface Ctx {
  api: string;
  bare: string;
  authApp: string;
  authOnly: string;
  data: BenchData;
  token: string;
  pool: Pool;
  temporal: Client;
  authChild: Child;
  profile: Profile;
  log: Log;
}

// ---- 1. ticket create vs. the no-op workflow peer -----------------------------------------

export async function scenarioCreate(c: Ctx) {
  const t = c.data.create;
  const rng = new Rng(99);
  const priorities = ['low', 'medium', 'medium', 'high', 'urgent'];
  const bodies = Array.from({ length: 1024 }, (_, i) => {
    const g = generateText(rng);
    return JSON.stringify({
      workspaceId: t.workspaceId,
      playerId: t.players[i % t.players.length].playerId,
      title: g.title,
      body: g.body,
      priority: priorities[i % priorities.length],
      tags: i % 3 ? [] : ['bench'],
    });
  });
  const drains: number[] = [];
  // Triage runs in the worker after the `created` update returns; let it finish between
  // runs so one run's backlog does not slow the next (bounded: 90 s).
  const settle = async () => {
    const started = Date.now();
    while (Date.now() - started < 90_000) {
      const { rows } = await c.pool.query('SELECT count(*)::int AS n FROM tickets WHERE workspace_id = $1 AND NOT ai_triaged', [t.workspaceId]);
      if (rows[0].n === 0) break;
      await sleep(250);
    }
    drains.push(Date.now() - started);
  };
  const pair = (conns: number, suffix: string): Target[] => [
    {
      ...httpTarget(`create (API)${suffix}`, {
        url: c.api,
        method: 'POST',
        headers: { authorization: `Bearer ${c.token}` },
        connections: conns,
        next: (i) => ({ path: '/v1/tickets', body: bodies[i % bodies.length] }),
      }),
      after: settle,
    },
    { name: `no-op workflow (peer)${suffix}`, run: (sec) => runNoopDriver(c.temporal, conns, sec) },
    { name: `no-op local-activity workflow (peer)${suffix}`, run: (sec) => runNoopDriver(c.temporal, conns, sec, true) },
  ];
  const conns = c.profile.createConnections;
  const low = c.profile.createLowConnections;
  const results = await measure(pair(conns, ''), c.profile.createSec, c.profile, c.log);
  const lowResults = await measure(pair(low, ` @${low}`), c.profile.createLowSec, c.profile, c.log);
  const { rows } = await c.pool.query(
    'SELECT count(*)::int AS total, count(*) FILTER (WHERE ai_triaged)::int AS triaged FROM tickets WHERE workspace_id = $1',
    [t.workspaceId],
  );
  return {
    api: results['create (API)'],
    peer: results['no-op workflow (peer)'],
    peerLocal: results['no-op local-activity workflow (peer)'],
    connections: conns,
    low: {
      api: lowResults[`create (API) @${low}`],
      peer: lowResults[`no-op workflow (peer) @${low}`],
      peerLocal: lowResults[`no-op local-activity workflow (peer) @${low}`],
      connections: low,
    },
    created: rows[0],
    triageDrainMs: drains,
  };
}

// ---- 2. get by id and list vs. bare Koa + pg -------------------------------------------------

export async function scenarioReads(c: Ctx, page100Cursor: string) {
  const ws = c.data.list.workspaceId;
  const ids = c.data.getIds;
  const auth = { authorization: `Bearer ${c.token}` };
  const conns = c.profile.readConnections;
  const cur = encodeURIComponent(page100Cursor);
  const results = await measure(
    [
      httpTarget('get (API)', { url: c.api, headers: auth, connections: conns, next: (i) => ({ path: `/v1/tickets/${ids[i % ids.length]}` }) }),
      httpTarget('get (peer)', { url: c.bare, connections: conns, next: (i) => ({ path: `/tickets/${ids[i % ids.length]}` }) }),
      httpTarget('list p1 (API)', { url: c.api, headers: auth, connections: conns, path: `/v1/tickets?workspaceId=${ws}` }),
      httpTarget('list p1 (peer)', { url: c.bare, connections: conns, path: `/tickets?workspaceId=${ws}` }),
      httpTarget('list p100 (API)', { url: c.api, headers: auth, connections: conns, path: `/v1/tickets?workspaceId=${ws}&cursor=${cur}` }),
      httpTarget('list p100 (peer)', { url: c.bare, connections: conns, path: `/tickets?workspaceId=${ws}&cursor=${cur}` }),
    ],
    c.profile.readSec,
    c.profile,
    c.log,
  );
  return { results, connections: conns, workspaceTickets: c.data.list.tickets };
}

// ---- 3. full-text search over 100k tickets ---------------------------------------------------

export const SEARCH_SHAPES = [
  { shape: 'rare word', search: SEARCH_TERMS.rare as string | undefined },
  { shape: 'common word', search: SEARCH_TERMS.common as string | undefined },
  { shape: 'two-word phrase', search: SEARCH_TERMS.phrase as string | undefined },
  { shape: 'empty search', search: undefined },
];

export async function scenarioSearch(c: Ctx) {
  const ws = c.data.search.workspaceId;
  const auth = { authorization: `Bearer ${c.token}` };
  const conns = c.profile.readConnections;
  const qs = (s?: string) => `workspaceId=${ws}${s ? `&search=${encodeURIComponent(s)}` : ''}`;
  const targets: Target[] = [];
  for (const s of SEARCH_SHAPES) targets.push(httpTarget(`${s.shape} (API)`, { url: c.api, headers: auth, connections: conns, path: `/v1/tickets?${qs(s.search)}` }));
  for (const s of SEARCH_SHAPES) targets.push(httpTarget(`${s.shape} (peer)`, { url: c.bare, connections: conns, path: `/tickets?${qs(s.search)}` }));
  const results = await measure(targets, c.profile.readSec, c.profile, c.log, (t) => (t.name.endsWith('(peer)') ? c.profile.searchPeerSec : c.profile.readSec));
  // what each shape costs in Postgres: matches, and the plans of the two queries the API runs
  const shapes = [];
  for (const s of SEARCH_SHAPES) {
    const q = { workspaceId: ws, sortBy: 'createdAt', order: 'desc', limit: 25, offset: 0, search: s.search } as Parameters<typeof buildListQuery>[0];
    const { page, count } = buildListQuery(q, null);
    // the real number of matches (the app's own count is capped, see countMatches)
    const matches = (
      await c.pool.query(
        `SELECT count(*)::int AS n FROM tickets t WHERE t.workspace_id = $1${s.search ? ` AND t.search @@ websearch_to_tsquery('english', $2)` : ''}`,
        s.search ? [ws, s.search] : [ws],
      )
    ).rows[0].n as number;
    const explain = async (sql: string, params: unknown[]) =>
      (await c.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    shapes.push({
      ...s,
      matches,
      api: results[`${s.shape} (API)`],
      peer: results[`${s.shape} (peer)`],
      planPage: await explain(page.sql, page.params),
      planCount: await explain(count.sql, count.params),
    });
  }
  return { shapes, connections: conns, workspaceTickets: c.data.search.tickets };
}

// ---- 4. auth and rate-limit overhead (the app in bench/auth-overhead.ts's process) ------------

let ipcId = 0;
function authIpc(child: Child, cmd: 'reset' | 'stats'): Promise<AuthCacheStats> {
  const id = ++ipcId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`auth-overhead IPC ${cmd} timed out`)), 5000);
    const onMsg = (m: any) => {
      if (m?.id !== id) return;
      clearTimeout(timer);
      child.proc.off('message', onMsg);
      resolve(m.stats);
    };
    child.proc.on('message', onMsg);
    child.proc.send({ cmd, id });
  });
}

export async function scenarioAuth(c: Ctx, jwt: string, key: string) {
  const conns = c.profile.readConnections;
  const withCache = (t: Target): Target => ({
    ...t,
    run: async (sec) => {
      await authIpc(c.authChild, 'reset');
      const s = await t.run(sec);
      return { ...s, cache: await authIpc(c.authChild, 'stats') };
    },
  });
  const h = (bearer: string) => ({ authorization: `Bearer ${bearer}` });
  const results = await measure(
    [
      httpTarget('health (no auth)', { url: c.authApp, connections: conns, path: '/v1/health' }),
      withCache(httpTarget('auth/me (JWT)', { url: c.authApp, connections: conns, path: '/v1/auth/me', headers: h(jwt) })),
      withCache(httpTarget('auth/me (raw key)', { url: c.authApp, connections: conns, path: '/v1/auth/me', headers: h(key) })),
      httpTarget('noop (no auth)', { url: c.authOnly, connections: conns, path: '/v1/plain' }),
      withCache(httpTarget('noop+auth (JWT)', { url: c.authOnly, connections: conns, path: '/v1/authed', headers: h(jwt) })),
      withCache(httpTarget('noop+auth (raw key)', { url: c.authOnly, connections: conns, path: '/v1/authed', headers: h(key) })),
    ],
    c.profile.authSec,
    c.profile,
    c.log,
  );
  return { results, connections: conns };
}
