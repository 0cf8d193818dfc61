import { Client, Connection } from '@temporalio/client';
import Redis from 'ioredis';
import { systemClock, type Clock } from '../lib/clock';
import type { Config } from '../lib/config';
import { logger, type Logger } from '../lib/logger';
import { connectDb, type Db } from '../db/db';
import type { Resolver } from '../lib/webhooks/url-policy';

/** Everything the HTTP layer talks to, built once per process and handed to createApp. */
export interface AppDeps {
  config: Config;
  db: Db;
  redis: Redis;
  temporal: Client;
  logger: Logger;
  /**
   * How webhook URLs' hostnames are resolved at registration; default the OS resolver.
   * Injectable so tests can make a name resolve to a private address without real DNS.
   */
  resolveHost?: Resolver;
  /**
   * The time expiry checks on the request path read (setup tokens); default the system
   * clock. Injectable so a test stands at the exact boundary (lib/clock.ts).
   */
  clock?: Clock;
}

/** The request path's clock (AppDeps.clock, else the system's). */
export const nowOf = (deps: AppDeps): Date => (deps.clock ?? systemClock)();

export async function createDeps(config: Config): Promise<AppDeps & { close(): Promise<void> }> {
  const db = await connectDb(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true, commandTimeout: 3000, connectTimeout: 3000 });
  const connection = await Connection.connect({ address: config.temporalAddress });
  const temporal = new Client({ connection, namespace: config.temporalNamespace });
  return {
    config,
    db,
    redis,
    temporal,
    logger,
    async close() {
      await connection.close();
      redis.disconnect();
      await db.close();
    },
  };
}

/**
 * One `create(deps)` per AppDeps, made on first use: the per-process services of a
 * resource (auth caches, limits) that routers and middleware each ask for by deps.
 */
export function perDeps<T>(create: (deps: AppDeps) => T): (deps: AppDeps) => T {
  const made = new WeakMap<AppDeps, T>();
  return (deps) => {
    let value = made.get(deps);
    if (value === undefined) made.set(deps, (value = create(deps)));
    return value;
  };
}
