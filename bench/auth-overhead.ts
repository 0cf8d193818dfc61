// The app, in this process, for the auth-overhead scenario: `createApp(createDeps(
// loadConfig()))` exactly as api/server.ts builds it, so the benchmark can read the
// process's `authCacheStats()` (api/ticketing/auth) before and after a load without the
// app exposing anything new. Started by bench/run.ts with an IPC channel:
//
//   APP_PORT   the whole app (GET /v1/health vs GET /v1/auth/me)
//   AUTH_PORT  a minimal Koa app with the same requestId + error middleware and two
//              routes, GET /v1/plain (no auth) and GET /v1/authed (the app's own
//              authenticate + rateLimit middleware, then an empty 200), so the difference
//              between the two is the auth + rate-limit cost alone, without /auth/me's query
//
// IPC: { cmd: 'reset' } → resetAuthCacheStats(); { cmd: 'stats' } → authCacheStats().
import Router from '@koa/router';
import Koa from 'koa';
import { createApp } from '../api/app';
import { createDeps } from '../api/deps';
import { ticketingEnvelope } from '../api/kit/envelopes';
import { errorHandler } from '../api/kit/error-middleware';
import { requestId } from '../api/kit/request-id';
import { authCacheStats, authenticate, rateLimit, resetAuthCacheStats } from '../api/ticketing/auth';
import { loadConfig } from '../lib/config';

async function main() {
  const deps = await createDeps(loadConfig());
  const appPort = Number(process.env.APP_PORT ?? 3902);
  const authPort = Number(process.env.AUTH_PORT ?? 3903);

  const app = createApp(deps).listen(appPort, '127.0.0.1');
  app.keepAliveTimeout = 65_000;

  const mini = new Koa();
  mini.proxy = true;
  mini.use(requestId());
  mini.use(
    errorHandler({ logger: deps.logger, envelopes: [['/v1', ticketingEnvelope]], allowedMethods: () => [], bodyLimit: deps.config.bodyLimit }),
  );
  const router = new Router({ prefix: '/v1' });
  router.get('/plain', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/authed', authenticate(deps), rateLimit(deps), (ctx) => {
    ctx.body = { ok: true };
  });
  mini.use(router.routes());
  const miniServer = mini.listen(authPort, '127.0.0.1');
  miniServer.keepAliveTimeout = 65_000;

  process.on('message', (msg: { cmd: string; id: number }) => {
    if (msg.cmd === 'reset') resetAuthCacheStats();
    process.send!({ id: msg.id, stats: authCacheStats() });
  });
  const stop = () => {
    app.close();
    miniServer.close();
    void deps.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop); // the bench run went away
  console.log(`auth-overhead app on ${appPort}, auth-only app on ${authPort}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
