// The loop both outbox dispatchers share (workers/outbox-dispatcher.ts), on an outbox in
// memory: a backlog is drained by several drains at once while claims come back full, up
// to `maxDrains`, each item started and settled once; by default one drain runs at a
// time; with `gatherMs`, short claims are that far apart. The dispatchers over PostgreSQL
// and Temporal have their own tests (webhook, workflow-start and firing dispatchers); this
// one counts what the loop does.
import assert from 'node:assert/strict';
import type { Db, Listener } from '../../db/db';
import { createLogger } from '../../lib/logger';
import { createOutboxDispatcher } from '../../workers/outbox-dispatcher';
import { eventually } from '../support/eventually';

const logger = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An outbox of `n` items, claimed `limit` at a time, whose starts take `startMs` each. */
function memoryOutbox(n: number, limit: number, startMs: number) {
  const waiting = Array.from({ length: n }, (_, i) => i);
  const started = new Map<number, number>();
  const settled = new Map<number, number>();
  let drainsNow = 0;
  let mostDrains = 0;
  let notify: () => void = () => undefined;
  const db = {
    async listen(_channel: string, handlers: { onNotify: () => void }): Promise<Listener> {
      notify = () => handlers.onNotify();
      return { close: async () => undefined };
    },
  } as unknown as Db;
  return {
    db,
    waiting,
    started,
    settled,
    mostDrains: () => mostDrains,
    notify: () => notify(),
    options: {
      db,
      logger,
      channel: 'memory_outbox',
      name: 'memory',
      pollIntervalMs: 60_000,
      async claim() {
        await sleep(1);
        const items = waiting.splice(0, limit);
        return { items, full: items.length >= limit };
      },
      async start(item: number) {
        drainsNow++;
        mostDrains = Math.max(mostDrains, drainsNow);
        await sleep(startMs);
        drainsNow--;
        started.set(item, (started.get(item) ?? 0) + 1);
      },
      async settle(items: number[]) {
        for (const i of items) settled.set(i, (settled.get(i) ?? 0) + 1);
      },
    },
  };
}

// Each claim's starts run together, so the starts in flight at once, divided by the claim
// size, are the drains in flight at once.
test('a backlog is drained by several drains at once, up to maxDrains, each item once', async () => {
  const outbox = memoryOutbox(200, 10, 30);
  const dispatcher = createOutboxDispatcher({ ...outbox.options, maxDrains: 3 });
  await dispatcher.start();
  await eventually(() => outbox.settled.size === 200, { timeoutMs: 10_000, what: `200 items settled` });
  await dispatcher.stop();
  assert.ok(outbox.mostDrains() > 10, `more than one claim's starts in flight at once (most: ${outbox.mostDrains()})`);
  assert.ok(outbox.mostDrains() <= 30, `at most 3 drains at once (most starts in flight: ${outbox.mostDrains()})`);
  assert.ok([...outbox.started.values()].every((n) => n === 1), 'each item started once');
  assert.ok([...outbox.settled.values()].every((n) => n === 1), 'each item settled once');
});

test('by default, one drain at a time, full claims or not', async () => {
  const outbox = memoryOutbox(60, 10, 10);
  const dispatcher = createOutboxDispatcher(outbox.options);
  await dispatcher.start();
  await eventually(() => outbox.settled.size === 60, { timeoutMs: 10_000, what: `60 items settled` });
  await dispatcher.stop();
  assert.equal(outbox.mostDrains(), 10, 'one claim in flight at a time');
});

test('a notification during the drains is drained once they finish; stop waits for every drain', async () => {
  const outbox = memoryOutbox(40, 10, 20);
  const dispatcher = createOutboxDispatcher({ ...outbox.options, maxDrains: 4 });
  await dispatcher.start();
  // items committed while the drains run, with a notification, as a new outbox row brings
  await sleep(5);
  outbox.waiting.push(...Array.from({ length: 25 }, (_, i) => 100 + i));
  outbox.notify();
  await eventually(() => outbox.settled.size === 65, { timeoutMs: 10_000, what: `65 items settled` });
  await dispatcher.stop();
  assert.ok([...outbox.settled.values()].every((n) => n === 1));
});

// Claims that come back short are kept gatherMs apart, so each takes what committed
// meanwhile; the first claim after a quiet spell, and the one after a full claim, go at
// once (checked as "sooner than gatherMs", which a busy machine cannot make flaky).
test('with gatherMs, short claims are that far apart; a quiet spell and a full claim do not wait', async () => {
  const gatherMs = 400;
  const outbox = memoryOutbox(0, 10, 1);
  const claims: Array<{ at: number; n: number }> = [];
  const dispatcher = createOutboxDispatcher({
    ...outbox.options,
    gatherMs,
    async claim() {
      const at = Date.now();
      const claimed = await outbox.options.claim();
      if (claimed.items.length) claims.push({ at, n: claimed.items.length });
      return claimed;
    },
  });
  await dispatcher.start();
  await sleep(gatherMs + 50); // a quiet spell
  const quietAt = Date.now();
  outbox.waiting.push(1);
  outbox.notify();
  await eventually(() => outbox.settled.size === 1, { timeoutMs: 5_000, what: 'the first item settled' });
  // a trickle: an item every 10 ms for 200 ms, each with its notification
  for (let i = 0; i < 20; i++) {
    outbox.waiting.push(100 + i);
    outbox.notify();
    await sleep(10);
  }
  await eventually(() => outbox.settled.size === 21, { timeoutMs: 5_000, what: '21 items settled' });
  // more than a claim holds: the claims after a full one do not wait
  outbox.waiting.push(...Array.from({ length: 25 }, (_, i) => 200 + i));
  outbox.notify();
  await eventually(() => outbox.settled.size === 46, { timeoutMs: 5_000, what: '46 items settled' });
  await dispatcher.stop();

  assert.ok(claims[0].at - quietAt < gatherMs, `the first claim after a quiet spell without waiting (${claims[0].at - quietAt} ms)`);
  const short = claims.filter((c) => c.n < 10);
  for (let i = 1; i < short.length; i++) {
    assert.ok(short[i].at - short[i - 1].at >= gatherMs - 1, `short claims gatherMs apart (${short[i].at - short[i - 1].at} ms)`);
  }
  assert.ok(short.length <= 4, `the trickle's 20 items in a claim or two, not one each (short claims: ${short.length})`);
  const full = claims.findIndex((c) => c.n === 10);
  assert.ok(full >= 0 && claims[full + 1].at - claims[full].at < gatherMs, 'the claim after a full one without waiting');
  assert.ok([...outbox.settled.values()].every((n) => n === 1), 'each item settled once');
});
