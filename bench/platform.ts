// The platform API's ticket scenarios of `npm run bench` (docs/benchmarks.md, "Platform
// tickets"): create next to the no-op workflow peer, get by id and list page 1 next to
// bare Koa + pg running the same repository functions (bench/peers/bare-koa.ts,
// /platform/...). Seeds one platform tenant (domain/platform/create-tenant.ts, as
// `npm run admin -- create-tenant` makes one) with SIZES.list tickets in its sandbox
// environment; the create scenario adds its tickets through the real API and the platform
// worker starts their workflows from the outbox.
import type { Pool } from 'pg';
import { connectDb } from '../db/db';
import { createPlatformTenant, type PlatformTenant } from '../domain/platform/create-tenant';
import { SIZES } from './lib/data';
import { sleep } from './lib/procs';
import { runNoopDriver } from './peers/noop-workflow';
import { httpTarget, measure, type Ctx } from './scenarios';
import { generateText, Rng } from './seed';

export interface PlatformBenchData {
  tenant: PlatformTenant;
  tickets: number;
  getIds: string[];
}

/** One platform tenant and SIZES.list sandbox tickets in its workspace (created over the last 90 days). */
export async function seedPlatform(pool: Pool, databaseUrl: string, nowMs: number): Promise<PlatformBenchData> {
  const db = await connectDb(databaseUrl, 2);
  let tenant: PlatformTenant;
  try {
    tenant = await createPlatformTenant(db, { name: 'Bench platform', now: new Date(nowMs) });
  } finally {
    await db.close();
  }
  const priorities = ['critical', 'high', 'normal', 'normal', 'low'];
  const statuses = ['open', 'open', 'pending', 'resolved', 'closed'];
  const channels = Object.values(tenant.channelIds);
  await pool.query(
    `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, body, contact_email,
                                   priority, status, assignee_id, tags, created_by, created_at, updated_at)
     SELECT 'tkt_bench' || lpad(g::text, 17, '0'), $1, $2, 'test', ($3::text[])[1 + g % array_length($3::text[], 1)],
            'Bench ticket ' || g, 'The game crashes when I open the inventory after the last patch.', 'player' || g || '@example.com',
            ($4::text[])[1 + g % 5], ($5::text[])[1 + (g / 7) % 5], CASE WHEN g % 3 = 0 THEN $6 END,
            CASE WHEN g % 4 = 0 THEN ARRAY['bench','crash'] ELSE '{}' END, $7,
            to_timestamp($8::double precision / 1000) - (g * interval '13 minutes'), to_timestamp($8::double precision / 1000) - (g * interval '13 minutes')
       FROM generate_series(1, $9::int) g`,
    [tenant.organizationId, tenant.workspaceId, channels, priorities, statuses, tenant.agentUserId, tenant.adminUserId, nowMs, SIZES.list],
  );
  await pool.query('VACUUM (ANALYZE) platform_tickets');
  const rng = new Rng(11);
  const getIds = Array.from({ length: SIZES.getIds }, () => `tkt_bench${String(1 + rng.int(SIZES.list)).padStart(17, '0')}`);
  return { tenant, tickets: SIZES.list, getIds };
}

export async function scenarioPlatform(c: Ctx, p: PlatformBenchData) {
  const t = p.tenant;
  const auth = { authorization: `Bearer ${t.adminToken}` };
  const rng = new Rng(101);
  const priorities = ['critical', 'high', 'normal', 'normal', 'low'];
  const channels = Object.values(t.channelIds);
  const bodies = Array.from({ length: 1024 }, (_, i) => {
    const g = generateText(rng);
    return JSON.stringify({
      subject: g.title,
      body: g.body,
      channel_id: channels[i % channels.length],
      contact_email: `player${i}@example.com`,
      priority: priorities[i % priorities.length],
      tags: i % 3 ? [] : ['bench'],
    });
  });
  // the platform worker starts the created tickets' workflows from the outbox: let it catch
  // up between runs so one run's backlog does not slow the next (bounded: 90 s)
  const drains: number[] = [];
  const settle = async () => {
    const started = Date.now();
    while (Date.now() - started < 90_000) {
      const { rows } = await c.pool.query(`SELECT count(*)::int AS n FROM workflow_starts WHERE task_queue = 'platform'`);
      if (rows[0].n === 0) break;
      await sleep(250);
    }
    drains.push(Date.now() - started);
  };
  const conns = c.profile.readConnections;
  const reads = await measure(
    [
      httpTarget('platform get (API)', { url: c.api, headers: auth, connections: conns, next: (i) => ({ path: `/platform/v1/tickets/${p.getIds[i % p.getIds.length]}` }) }),
      httpTarget('platform get (peer)', { url: c.bare, connections: conns, next: (i) => ({ path: `/platform/tickets/${p.getIds[i % p.getIds.length]}` }) }),
      httpTarget('platform list p1 (API)', { url: c.api, headers: auth, connections: conns, path: '/platform/v1/tickets' }),
      httpTarget('platform list p1 (peer)', { url: c.bare, connections: conns, path: `/platform/tickets?workspaceId=${t.workspaceId}&environment=test` }),
    ],
    c.profile.readSec,
    c.profile,
    c.log,
  );
  const createConns = c.profile.createConnections;
  const create = await measure(
    [
      {
        ...httpTarget('platform create (API)', {
          url: c.api,
          method: 'POST',
          headers: auth,
          connections: createConns,
          next: (i) => ({ path: '/platform/v1/tickets', body: bodies[i % bodies.length] }),
        }),
        after: settle,
      },
      { name: 'no-op workflow (peer)', run: (sec) => runNoopDriver(c.temporal, createConns, sec) },
    ],
    c.profile.createSec,
    c.profile,
    c.log,
  );
  const { rows } = await c.pool.query(
    `SELECT count(*)::int AS created,
            (SELECT count(*)::int FROM workflow_starts WHERE task_queue = 'platform') AS pending_starts
       FROM platform_tickets WHERE workspace_id = $1 AND id NOT LIKE 'tkt_bench%'`,
    [t.workspaceId],
  );
  return {
    get: { api: reads['platform get (API)'], peer: reads['platform get (peer)'] },
    list: { api: reads['platform list p1 (API)'], peer: reads['platform list p1 (peer)'] },
    create: { api: create['platform create (API)'], peer: create['no-op workflow (peer)'], connections: createConns },
    readConnections: conns,
    workspaceTickets: p.tickets,
    created: rows[0] as { created: number; pending_starts: number },
    outboxDrainMs: drains,
  };
}
