// Peer of the ticket reads: a bare Koa + node-postgres server that runs the SAME SQL as
// the app (the app's own repository functions and list-query builder) with no request
// id, no auth, no rate limit, no validation and no presenters: rows go out as they come.
//
//   DATABASE_URL=… PORT=3901 tsx bench/peers/bare-koa.ts
//
//   GET /tickets/:id                       findTicket, then listMessages + findAgent + findPlayer
//                                          (what GET /v1/tickets/{id} runs)
//   GET /tickets?workspaceId&limit&cursor&search
//                                          buildListQuery: page + countMatches in parallel
//                                          (what GET /v1/tickets runs)
//   GET /platform/tickets/:id              findPlatformTicket (what GET /platform/v1/tickets/{id} runs)
//   GET /platform/tickets?workspaceId&environment
//                                          listPlatformTickets page 1 (what GET /platform/v1/tickets runs)
import Koa from 'koa';
import { Pool } from 'pg';
import { findTicket, listMessages } from '../../db/repositories/tickets';
import { findPlayer } from '../../db/repositories/players';
import { findAgent } from '../../db/repositories/agents';
import { countMatches } from '../../db/repositories/ticket-list';
import { buildListQuery } from '../../api/ticketing/tickets/list-query';
import { findPlatformTicket, listPlatformTickets } from '../../db/repositories/platform-tickets';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 }); // the app's pool size (db/db.ts)
const app = new Koa();

app.use(async (ctx) => {
  if (ctx.method !== 'GET') return;
  const platformById = /^\/platform\/tickets\/([^/]+)$/.exec(ctx.path);
  if (platformById) {
    const t = await findPlatformTicket(pool, platformById[1]);
    ctx.status = t ? 200 : 404;
    ctx.body = t ?? { error: 'not found' };
    return;
  }
  if (ctx.path === '/platform/tickets') {
    const q = ctx.query as Record<string, string | undefined>;
    ctx.body = await listPlatformTickets(pool, { workspaceId: q.workspaceId!, environment: q.environment === 'live' ? 'live' : 'test' }, 0, 25);
    return;
  }
  const byId = /^\/tickets\/([^/]+)$/.exec(ctx.path);
  if (byId) {
    const t = await findTicket(pool, byId[1]);
    if (!t) {
      ctx.status = 404;
      ctx.body = { error: 'not found' };
      return;
    }
    const [messages, assignee, player] = await Promise.all([
      listMessages(pool, t.id),
      t.assigneeId ? findAgent(pool, t.workspaceId, t.assigneeId) : null,
      t.playerRef ? findPlayer(pool, t.playerRef) : null,
    ]);
    ctx.body = { ...t, messages, assignee, player };
    return;
  }
  if (ctx.path === '/tickets') {
    const q = ctx.query as Record<string, string | undefined>;
    const query = {
      workspaceId: q.workspaceId!,
      sortBy: 'createdAt',
      order: 'desc',
      limit: Number(q.limit ?? 25),
      offset: 0,
      cursor: q.cursor,
      search: q.search,
    } as Parameters<typeof buildListQuery>[0];
    const { page, count, cursorFor } = buildListQuery(query, null);
    const [rows, total] = await Promise.all([pool.query(page.sql, page.params), countMatches(pool, count)]);
    const hasMore = rows.rows.length > query.limit;
    const data = rows.rows.slice(0, query.limit);
    ctx.body = { data, ...total, nextCursor: hasMore ? cursorFor(data[data.length - 1]) : null };
  }
});

const port = Number(process.env.PORT ?? 3901);
const server = app.listen(port, '127.0.0.1', () => console.log(`bare-koa peer on ${port}`));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
