// Turns a run's results into the targets check and the Markdown report.
import type { Aggregate } from './lib/load';
import type { Machine } from './lib/stack';
import type { scenarioPlatform } from './platform';
import type { Profile, scenarioAuth, scenarioCreate, scenarioReads, scenarioSearch } from './scenarios';

export interface Results {
  startedAt: string;
  wallSeconds: number;
  profile: Profile & { name: string };
  machine: Machine;
  seed: { ms: number; searchTickets: number; listTickets: number };
  create?: Awaited<ReturnType<typeof scenarioCreate>>;
  reads?: Awaited<ReturnType<typeof scenarioReads>>;
  search?: Awaited<ReturnType<typeof scenarioSearch>>;
  auth?: Awaited<ReturnType<typeof scenarioAuth>>;
  platform?: Awaited<ReturnType<typeof scenarioPlatform>>;
  targets?: TargetCheck[];
  errors?: string[];
  /** 1-min load average when each scenario started */
  loadAvgAtScenario?: Record<string, number>;
}

export interface TargetCheck {
  scenario: string;
  target: string;
  measured: string;
  met: boolean;
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
const rps = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const pct = (v: number) => `${(v * 100).toFixed(0)} %`;
const us = (r: number) => 1e6 / r;

export function checkTargets(r: Results): TargetCheck[] {
  const out: TargetCheck[] = [];
  if (r.create) {
    const { api, peer } = r.create;
    out.push({ scenario: 'create', target: 'throughput ≥ 50 % of the no-op workflow peer', measured: `${pct(api.rps / peer.rps)} (${rps(api.rps)} vs ${rps(peer.rps)} req/s)`, met: api.rps >= 0.5 * peer.rps });
    out.push({ scenario: 'create', target: 'throughput vs the local-activity peer (information)', measured: `${pct(api.rps / r.create.peerLocal.rps)} (${rps(api.rps)} vs ${rps(r.create.peerLocal.rps)} req/s)`, met: api.rps >= 0.5 * r.create.peerLocal.rps });
    out.push({ scenario: 'create', target: 'p99 < 100 ms', measured: `${ms(api.p99)} ms at ${r.create.connections} connections (${ms(r.create.low.api.p99)} ms at ${r.create.low.connections})`, met: api.p99 < 100 });
    out.push({ scenario: 'create', target: 'no failed requests', measured: String(api.failures), met: api.failures === 0 });
  }
  if (r.reads) {
    const x = r.reads.results;
    for (const [label, a, p] of [
      ['get by id', x['get (API)'], x['get (peer)']],
      ['list page 1', x['list p1 (API)'], x['list p1 (peer)']],
      ['list cursor page 100', x['list p100 (API)'], x['list p100 (peer)']],
    ] as const) {
      out.push({ scenario: label, target: 'throughput ≥ 60 % of bare Koa + pg', measured: `${pct(a.rps / p.rps)} (${rps(a.rps)} vs ${rps(p.rps)} req/s)`, met: a.rps >= 0.6 * p.rps });
      out.push({ scenario: label, target: 'p99 < 25 ms', measured: `${ms(a.p99)} ms`, met: a.p99 < 25 });
    }
    const p1 = x['list p1 (API)'];
    const p100 = x['list p100 (API)'];
    out.push({ scenario: 'list cursor page 100', target: 'p50 ≤ 1.5 × page 1 p50', measured: `${(p100.p50 / p1.p50).toFixed(2)} × (${ms(p100.p50)} vs ${ms(p1.p50)} ms)`, met: p100.p50 <= 1.5 * p1.p50 });
  }
  if (r.search) {
    for (const s of r.search.shapes) {
      out.push({ scenario: `search: ${s.shape}`, target: 'p95 < 20 ms', measured: `${ms(s.api.p95)} ms`, met: s.api.p95 < 20 });
      out.push({ scenario: `search: ${s.shape}`, target: 'p99 < 100 ms', measured: `${ms(s.api.p99)} ms`, met: s.api.p99 < 100 });
    }
  }
  if (r.platform) {
    const { create, get, list } = r.platform;
    out.push({ scenario: 'platform create', target: 'throughput ≥ 50 % of the no-op workflow peer', measured: `${pct(create.api.rps / create.peer.rps)} (${rps(create.api.rps)} vs ${rps(create.peer.rps)} req/s)`, met: create.api.rps >= 0.5 * create.peer.rps });
    out.push({ scenario: 'platform create', target: 'p99 < 100 ms', measured: `${ms(create.api.p99)} ms at ${create.connections} connections`, met: create.api.p99 < 100 });
    out.push({ scenario: 'platform create', target: 'no failed requests', measured: String(create.api.failures), met: create.api.failures === 0 });
    for (const [label, x] of [['platform get by id', get], ['platform list page 1', list]] as const) {
      out.push({ scenario: label, target: 'throughput ≥ 60 % of bare Koa + pg', measured: `${pct(x.api.rps / x.peer.rps)} (${rps(x.api.rps)} vs ${rps(x.peer.rps)} req/s)`, met: x.api.rps >= 0.6 * x.peer.rps });
      out.push({ scenario: label, target: 'p99 < 25 ms', measured: `${ms(x.api.p99)} ms`, met: x.api.p99 < 25 });
    }
  }
  return out;
}

function row(cells: Array<string | number>): string {
  return `| ${cells.join(' | ')} |`;
}

function statRow(name: string, a: Aggregate, extra: string[] = []): string {
  return row([name, rps(a.rps), ms(a.p50), ms(a.p95), ms(a.p99), a.failures, ...extra]);
}

export function toMarkdown(r: Results): string {
  const m = r.machine;
  const L: string[] = [];
  L.push(`# Benchmark results`, '');
  L.push(`Run ${r.startedAt}, ${Math.round(r.wallSeconds)} s wall, profile \`${r.profile.name}\` (${r.profile.runs} runs per target, medians; warm-up ${r.profile.warmSec} s per target).`);
  L.push(`Machine: ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB RAM, Node ${m.node}, PostgreSQL ${m.postgres ?? '?'}, ${m.temporalCli ?? 'Temporal CLI'}, ${m.os}.`);
  L.push(`Everything (load generator, API, worker, Temporal dev server on SQLite, Postgres, Redis) shares these ${m.nproc} cores. 1-min load average at start ${m.loadAvgStart}, at end ${m.loadAvgEnd ?? '?'} (above ~0.5 at start means other work was running on the machine).`, '');
  if (r.loadAvgAtScenario) {
    L.push(`Load average when each scenario started: ${Object.entries(r.loadAvgAtScenario).map(([k, v]) => `${k.split(' ')[0]} ${v}`).join(', ')}.`, '');
  }
  if (r.errors?.length) L.push('**Errors during the run:**', '', ...r.errors.map((e) => `- ${e.split('\n')[0]}`), '');

  if (r.targets?.length) {
    L.push('## Targets', '', row(['scenario', 'aim', 'measured', 'met']), row(['---', '---', '---', '---']));
    for (const t of r.targets) L.push(row([t.scenario, t.target, t.measured, t.met ? 'yes' : '**no**']));
    L.push('');
  }
  const head = (first: string, extra: string[] = []) => [
    row([first, 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'failures', ...extra]),
    row(['---', ...Array(5 + extra.length).fill('---:')]),
  ];
  if (r.create) {
    const c = r.create;
    L.push(`## 1. Ticket create (${c.connections} connections, ${r.profile.createSec} s per run)`, '');
    L.push(...head('target'));
    L.push(statRow('`POST /v1/tickets` (API → update-with-start → insert local activity)', c.api));
    L.push(statRow('no-op workflow, update-with-start on its first activity (peer)', c.peer));
    L.push(statRow('same, with a local activity (the shape create has had since storage steps went local)', c.peerLocal));
    L.push(statRow(`\`POST /v1/tickets\` at ${c.low.connections} connections (${r.profile.createLowSec} s per run)`, c.low.api));
    L.push(statRow(`no-op workflow peer at ${c.low.connections} connections`, c.low.peer));
    L.push(statRow(`no-op local-activity workflow peer at ${c.low.connections} connections`, c.low.peerLocal));
    L.push('', `Tickets created: ${c.created.total} (${c.created.triaged} triaged at the end). Triage backlog drain after each run (ms): ${c.triageDrainMs.join(', ')}.`, '');
  }
  if (r.reads) {
    const x = r.reads.results;
    L.push(`## 2. Get by id and list (${r.reads.connections} connections, ${r.profile.readSec} s per run, workspace of ${r.reads.workspaceTickets} tickets)`, '');
    L.push(...head('target', ['API / peer']));
    for (const [name, a, p] of [
      ['`GET /v1/tickets/{id}`', 'get (API)', 'get (peer)'],
      ['`GET /v1/tickets?workspaceId` page 1', 'list p1 (API)', 'list p1 (peer)'],
      ['`GET /v1/tickets?workspaceId&cursor` page 100', 'list p100 (API)', 'list p100 (peer)'],
    ] as const) {
      L.push(statRow(name, x[a], [pct(x[a].rps / x[p].rps)]));
      L.push(statRow(`↳ bare Koa + pg, same SQL`, x[p], ['']));
    }
    L.push('');
  }
  if (r.search) {
    const s = r.search;
    L.push(`## 3. Full-text search, one workspace of ${s.workspaceTickets} tickets (${s.connections} connections)`, '');
    L.push(row(['query shape', 'search=', 'matches', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'failures', 'peer req/s', 'peer p95 ms']));
    L.push(row(['---', '---', ...Array(8).fill('---:')]));
    for (const x of s.shapes) {
      L.push(row([x.shape, x.search ? `\`${x.search}\`` : '(none)', x.matches, rps(x.api.rps), ms(x.api.p50), ms(x.api.p95), ms(x.api.p99), x.api.failures, rps(x.peer.rps), ms(x.peer.p95)]));
    }
    L.push('');
    const slow = s.shapes.filter((x) => !(x.api.p95 < 20 && x.api.p99 < 100));
    for (const x of slow) {
      L.push(`<details><summary>Plans for "${x.shape}" (missed its aim)</summary>`, '', '```', '-- page', x.planPage, '', '-- count', x.planCount, '```', '</details>', '');
    }
  }
  if (r.auth) {
    const a = r.auth.results;
    L.push(`## 4. Auth and rate-limit overhead (${r.auth.connections} connections, ${r.profile.authSec} s per run, app in-process in bench/auth-overhead.ts)`, '');
    L.push(row(['target', 'req/s', 'p50 ms', 'p99 ms', 'server µs/req', 'Δ µs/req vs no auth', 'Δ p50 ms', 'cache hit rate']));
    L.push(row(['---', ...Array(7).fill('---:')]));
    const hit = (agg: Aggregate, kind: 'tokens' | 'keys') => {
      const runs = agg.runs as Array<{ cache?: { tokens: { hits: number; misses: number }; keys: { hits: number; misses: number } } }>;
      let h = 0;
      let n = 0;
      for (const r0 of runs) {
        if (!r0.cache) continue;
        h += r0.cache[kind].hits;
        n += r0.cache[kind].hits + r0.cache[kind].misses;
      }
      return n ? `${kind === 'tokens' ? 'token' : 'key'} ${((h / n) * 100).toFixed(3)} % (${n - h} misses / ${n})` : '';
    };
    const line = (name: string, x: Aggregate, base: Aggregate | null, cache: string) =>
      row([name, rps(x.rps), ms(x.p50), ms(x.p99), us(x.rps).toFixed(0), base ? (us(x.rps) - us(base.rps)).toFixed(0) : '', base ? ms(x.p50 - base.p50) : '', cache]);
    const health = a['health (no auth)'];
    const plain = a['noop (no auth)'];
    L.push(line('`GET /v1/health` (whole app, no auth)', health, null, ''));
    L.push(line('`GET /v1/auth/me`, access token', a['auth/me (JWT)'], health, hit(a['auth/me (JWT)'], 'tokens')));
    L.push(line('`GET /v1/auth/me`, raw key', a['auth/me (raw key)'], health, hit(a['auth/me (raw key)'], 'keys')));
    L.push(line('minimal app, no auth', plain, null, ''));
    L.push(line('minimal app + authenticate + rateLimit, access token', a['noop+auth (JWT)'], plain, hit(a['noop+auth (JWT)'], 'tokens')));
    L.push(line('minimal app + authenticate + rateLimit, raw key', a['noop+auth (raw key)'], plain, hit(a['noop+auth (raw key)'], 'keys')));
    L.push('', '"server µs/req" is 1 000 000 / req/s at saturation: the time one request costs the single-threaded server. `/v1/auth/me` also reads its key row from Postgres; the minimal-app rows isolate authenticate + rateLimit (one Redis round trip).', '');
  }
  if (r.platform) {
    const x = r.platform;
    L.push(`## 5. Platform tickets (reads ${x.readConnections} connections, create ${x.create.connections}; workspace of ${x.workspaceTickets} sandbox tickets)`, '');
    L.push(...head('target', ['API / peer']));
    L.push(statRow('`GET /platform/v1/tickets/{id}`', x.get.api, [pct(x.get.api.rps / x.get.peer.rps)]));
    L.push(statRow('↳ bare Koa + pg, same SQL', x.get.peer, ['']));
    L.push(statRow('`GET /platform/v1/tickets` page 1 (25, with the total)', x.list.api, [pct(x.list.api.rps / x.list.peer.rps)]));
    L.push(statRow('↳ bare Koa + pg, same SQL', x.list.peer, ['']));
    L.push(statRow('`POST /platform/v1/tickets` (row + event + outbox entry in one transaction)', x.create.api, [pct(x.create.api.rps / x.create.peer.rps)]));
    L.push(statRow('↳ no-op workflow, update-with-start on its first activity', x.create.peer, ['']));
    L.push('', `Tickets created: ${x.created.created}; workflow starts still pending at the end: ${x.created.pending_starts}. Outbox drain after each run (ms): ${x.outboxDrainMs.join(', ')}.`, '');
  }
  return L.join('\n');
}
