// The loop both outbox dispatchers share (workflow starts, webhook batches): a NOTIFY on
// `channel` wakes it the moment an outbox row commits, a poll covers a lost notification
// or connection, one drain runs at a time while the outbox keeps up (a wake-up during a
// drain runs another right after it), and LISTEN is re-established when its connection
// dies or PostgreSQL is down. A drain claims items (SKIP LOCKED in the caller's claim),
// starts each one, and settles only those that started; the rest stay claimed and are
// taken up again after the caller's reclaim time. Starting is the caller's business (a
// Temporal workflow start, deduplicated by workflow id).
// A full claim means a backlog: another drain then claims the next items while this one
// is still starting its own, up to `maxDrains` at once. One drain at a time caps the
// outbox at a claim per start's round trip, and a slow Temporal start (hundreds of ms on
// a busy server) left it further behind with every claim (docs/webhooks.md, "Drains in
// parallel when behind").
// Claims while they come back short can be kept `gatherMs` apart: each then takes what
// committed meanwhile, so under load the batches grow and their workflow starts, which
// cost the Temporal server far more than a claim, stay few (docs/webhooks.md, "Claims
// gather under load").
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Listener } from '../db/db';
import type { Logger } from '../lib/logger';

export interface OutboxDispatcherOptions<T> {
  db: Db;
  logger: Logger;
  /** the NOTIFY channel of the outbox table */
  channel: string;
  /** for log lines: "ticketing workflow start", "webhook" */
  name: string;
  /** fallback poll when no notification arrives; also how soon LISTEN is retried */
  pollIntervalMs: number;
  claim(): Promise<OutboxClaim<T>>;
  start(item: T): Promise<void>;
  /** called with the items whose start succeeded */
  settle(started: T[]): Promise<void>;
  /** drains at once while claims come back full (default 1: one at a time whatever the backlog) */
  maxDrains?: number;
  /**
   * the least time from one claim to the next (default 0), the most an item waits for its
   * batch to fill; the first claim after a quiet spell and the one after a full claim go at once
   */
  gatherMs?: number;
}

/** What one claim took, and whether it took all it could (more is waiting: a backlog). */
export interface OutboxClaim<T> {
  items: T[];
  full: boolean;
}

export interface Dispatcher {
  /** resolves once LISTEN is in place (or being retried) and the backlog pass has begun */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createOutboxDispatcher<T>(opts: OutboxDispatcherOptions<T>): Dispatcher {
  const { db, logger, pollIntervalMs } = opts;
  let listener: Listener | undefined;
  let poll: NodeJS.Timeout | undefined;
  const maxDrains = opts.maxDrains ?? 1;
  const gatherMs = opts.gatherMs ?? 0;
  let lastClaimAt = 0;
  let lastFull = false;
  let stopped = false;
  const running = new Set<Promise<void>>();
  let again = false;

  /** Claims and starts until the outbox is empty; a full claim lets another drain in beside it. */
  async function drain(): Promise<void> {
    for (;;) {
      const wait = lastFull ? 0 : lastClaimAt + gatherMs - Date.now();
      if (wait > 0) await sleep(wait);
      const claimAt = Date.now();
      const { items: claimed, full } = await opts.claim();
      lastFull = full;
      if (!claimed.length) return;
      lastClaimAt = claimAt; // an empty claim (a poll, a quiet outbox) holds up nothing after it
      if (full && running.size < maxDrains) launch();
      const results = await Promise.allSettled(claimed.map((item) => opts.start(item)));
      await opts.settle(claimed.filter((_, i) => results[i].status === 'fulfilled'));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  function launch(): void {
    if (stopped) return;
    const run: Promise<void> = drain()
      .catch((err) => logger.warn({ err }, `${opts.name} dispatch failed; retrying on the next wake-up`))
      .finally(() => {
        running.delete(run);
        if (again) {
          again = false;
          launch();
        }
      });
    running.add(run);
  }

  function wake(): void {
    if (stopped) return;
    if (running.size) {
      again = true;
      return;
    }
    launch();
  }

  async function listen(): Promise<void> {
    try {
      const l: Listener = await db.listen(opts.channel, {
        onNotify: wake,
        onError(err) {
          logger.warn({ err }, `${opts.name} dispatcher lost its LISTEN connection; reconnecting`);
          if (listener === l) listener = undefined;
          if (!stopped) setTimeout(() => listen(), pollIntervalMs);
        },
      });
      listener = l;
      wake(); // whatever committed before LISTEN
    } catch {
      // PostgreSQL is down: the poll keeps draining once it is back, and LISTEN is retried
      if (!stopped) setTimeout(() => listen(), pollIntervalMs);
    }
  }

  return {
    async start() {
      await listen();
      poll = setInterval(wake, pollIntervalMs);
      poll.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      while (running.size) await Promise.all([...running]);
      await listener?.close();
      listener = undefined;
    },
  };
}
